package io.objectcommit.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** PlainS3's reading of S3's XML answers (as S3 documents them, with the namespace), no network. */
class PlainS3Test {

  private static final String NS = " xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"";

  @Test
  void aTruncatedListingGivesItsKeysAndToken() {
    PlainS3.ListPage p = PlainS3.parseListPage("<?xml version=\"1.0\" encoding=\"UTF-8\"?><ListBucketResult" + NS
        + "><Name>b</Name><Prefix>d/</Prefix><KeyCount>2</KeyCount><MaxKeys>2</MaxKeys>"
        + "<IsTruncated>true</IsTruncated><Contents><Key>d/a &amp; b.txt</Key><Size>1</Size>"
        + "<ETag>&quot;0cc175b9c0f1b6a831c399e269772661&quot;</ETag></Contents>"
        + "<Contents><Key>d/c</Key><Size>0</Size><ETag>\"d41d8cd98f00b204e9800998ecf8427e-2\"</ETag></Contents>"
        + "<NextContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=</NextContinuationToken>"
        + "</ListBucketResult>");
    assertEquals(List.of("d/a & b.txt", "d/c"), p.keys());
    assertEquals(List.of("0cc175b9c0f1b6a831c399e269772661", "d41d8cd98f00b204e9800998ecf8427e-2"), p.etags(),
        "ETags without their quotes");
    assertTrue(p.truncated());
    assertEquals("1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=", p.nextToken());
  }

  @Test
  void theLastPageHasNoToken() {
    PlainS3.ListPage p = PlainS3.parseListPage("<ListBucketResult" + NS
        + "><Name>b</Name><KeyCount>0</KeyCount><IsTruncated>false</IsTruncated></ListBucketResult>");
    assertEquals(List.of(), p.keys());
    assertFalse(p.truncated());
    assertNull(p.nextToken());
  }

  @Test
  void uploadsAndUploadIds() {
    assertEquals("VXBsb2FkIElE", PlainS3.parseUploadId("<InitiateMultipartUploadResult" + NS
        + "><Bucket>b</Bucket><Key>k</Key><UploadId>VXBsb2FkIElE</UploadId></InitiateMultipartUploadResult>"));
    assertEquals(List.of(new PlainS3.Upload("t/a", "id1"), new PlainS3.Upload("t/b", "id2")),
        PlainS3.parseUploads("<ListMultipartUploadsResult" + NS + "><Bucket>b</Bucket><KeyMarker/>"
            + "<UploadIdMarker/><NextKeyMarker>t/b</NextKeyMarker><IsTruncated>false</IsTruncated>"
            + "<Upload><Key>t/a</Key><UploadId>id1</UploadId><Initiated>2026-11-23T08:00:00.000Z</Initiated></Upload>"
            + "<Upload><Key>t/b</Key><UploadId>id2</UploadId></Upload></ListMultipartUploadsResult>"));
    assertThrows(IllegalArgumentException.class, () -> PlainS3.parseUploadId("<Error><Code>X</Code></Error>"));
  }

  @Test
  void errorCodesAndBodiesThatAreNotErrors() {
    assertEquals("NoSuchKey", PlainS3.errorCode("<?xml version=\"1.0\"?><Error><Code>NoSuchKey</Code>"
        + "<Message>The specified key does not exist.</Message><Key>k</Key></Error>"));
    assertNull(PlainS3.errorCode(""));
    assertNull(PlainS3.errorCode("<html>bad gateway"));
  }

  @Test
  void aDoctypeIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> PlainS3.parseListPage(
        "<!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><ListBucketResult>&e;</ListBucketResult>"));
  }

  @Test
  void versionsAndDeleteMarkersInOrderWithTheNextMarkers() {
    PlainS3.VersionPage p = PlainS3.parseVersionPage("<ListVersionsResult" + NS
        + "><Name>b</Name><Prefix></Prefix><KeyMarker></KeyMarker><VersionIdMarker></VersionIdMarker>"
        + "<NextKeyMarker>b</NextKeyMarker><NextVersionIdMarker>v3</NextVersionIdMarker><MaxKeys>3</MaxKeys>"
        + "<IsTruncated>true</IsTruncated>"
        + "<DeleteMarker><Key>a</Key><VersionId>v1</VersionId><IsLatest>true</IsLatest>"
        + "<LastModified>2026-11-25T18:00:00.000Z</LastModified><Owner><ID>o</ID></Owner></DeleteMarker>"
        + "<Version><Key>a</Key><VersionId>v0</VersionId><IsLatest>false</IsLatest><ETag>\"e\"</ETag>"
        + "<Size>12</Size><StorageClass>STANDARD</StorageClass></Version>"
        + "<Version><Key>b</Key><VersionId>v3</VersionId><IsLatest>true</IsLatest><Size>5</Size></Version>"
        + "</ListVersionsResult>");
    assertEquals(List.of(new PlainS3.Version("a", "v1", true, true, 0), new PlainS3.Version("a", "v0", false, false, 12),
        new PlainS3.Version("b", "v3", true, false, 5)), p.versions());
    assertTrue(p.truncated());
    assertEquals("b", p.nextKeyMarker());
    assertEquals("v3", p.nextVersionIdMarker());
  }
}
