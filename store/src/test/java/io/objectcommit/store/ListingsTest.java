package io.objectcommit.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ListingsTest {

  @Test
  void everyPageIsReadInKeyOrderAndNothingOutsideThePrefix() throws IOException {
    PagedStore s = new PagedStore(3);
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      String k = String.format("dir/k%02d", i);
      s.objects.put(k, new byte[0]);
      expected.add(k);
    }
    s.objects.put("dirx/other", new byte[0]);
    s.objects.put("a", new byte[0]);
    assertEquals(expected, Listings.keys(s.store(), "dir/"));
    assertEquals(3, s.listRequests.size(), "8 keys in pages of 3");
    assertEquals(List.of(Listings.PAGE_SIZE, Listings.PAGE_SIZE, Listings.PAGE_SIZE), s.listRequests);
  }

  @Test
  void anEmptyPrefixIsOneRequest() throws IOException {
    PagedStore s = new PagedStore(3);
    assertEquals(List.of(), Listings.objects(s.store(), "none/"));
    assertEquals(1, s.listRequests.size());
  }
}
