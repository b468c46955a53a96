package io.objectcommit.store.guarantee;

import java.net.URI;
import java.util.Locale;
import java.util.Objects;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether a store is Amazon S3 itself, decided from its configuration alone (no request): the endpoint the client is
 * given ({@code fs.s3a.endpoint}, or none: the AWS SDK's own endpoint of the region), the endpoint the SDK would take
 * from its environment when none is given, and the bucket's name. Amazon S3 documents every guarantee the check
 * verifies (conditional writes on PutObject and CompleteMultipartUpload, in general purpose and directory buckets, in
 * all regions including GovCloud and China), so with {@code fs.objectcommit.conditional-writes=detect} such a store
 * is trusted without the check; docs/stores.md lists the forms recognised here and their sources.
 *
 * <p>Recognised (host names as AWS documents them; {@code R} a region such as {@code eu-west-1} or
 * {@code us-gov-west-1}; {@code .amazonaws.com.cn} for the China regions):
 * <ul>
 *   <li>no endpoint, and none in the SDK's environment: the SDK's endpoint (also for directory buckets,
 *       {@code *--x-s3}, which it sends to their zonal endpoint, and access point ARNs of the {@code s3} service);</li>
 *   <li>{@code s3.amazonaws.com}, {@code s3-external-1.amazonaws.com}, {@code s3.R.amazonaws.com},
 *       {@code s3-R.amazonaws.com} (legacy);</li>
 *   <li>dual-stack {@code s3.dualstack.R...}; FIPS {@code s3-fips.R...}, {@code s3-fips.dualstack.R...},
 *       {@code s3-fips-R.amazonaws.com} (legacy GovCloud form);</li>
 *   <li>access points {@code [name-account.]s3-accesspoint[-fips][.dualstack].R...};</li>
 *   <li>directory buckets' zonal endpoints {@code s3express-<zone id>[.dualstack].R.amazonaws.com};</li>
 *   <li>PrivateLink interface endpoints {@code [bucket.|accesspoint.]vpce-<id>.s3.R.vpce.amazonaws.com}: Amazon S3
 *       reached through an interface endpoint in the VPC, a name only AWS issues.</li>
 * </ul>
 * Everything else is checked: other hosts and addresses, an {@code amazonaws.com} host of another form (an EC2 or
 * load balancer name in front of another store, an S3 website endpoint, Transfer Acceleration, a Multi-Region Access
 * Point, whose writers in two regions are not ordered by one store, S3 on Outposts, Object Lambda), a port other than
 * 80 and 443, and a bucket whose name reserves it for a Multi-Region Access Point ({@code *.mrap}). Names are taken as
 * they are: a name that DNS or {@code /etc/hosts} sends elsewhere is trusted all the same
 * ({@code conditional-writes=check} checks it).
 */
public final class AmazonS3Endpoint {

  /** How the store was recognised as Amazon S3. */
  public enum Form {
    /** No endpoint set: the AWS SDK's endpoint of the region. */
    SDK_DEFAULT("no endpoint set: the AWS SDK's Amazon S3 endpoint"),
    /** No endpoint set, and a directory bucket name: the SDK's zonal S3 Express One Zone endpoint. */
    DIRECTORY_BUCKET("no endpoint set, directory bucket (S3 Express One Zone): the AWS SDK's zonal endpoint"),
    /** No endpoint set, and an access point ARN as the bucket. */
    ACCESS_POINT_ARN("no endpoint set, access point ARN: the AWS SDK's access point endpoint"),
    /** {@code s3.amazonaws.com}. */
    GLOBAL("the global endpoint"),
    /** {@code s3.R.amazonaws.com[.cn]}. */
    REGIONAL("a regional endpoint"),
    /** {@code s3-R.amazonaws.com}, {@code s3-external-1.amazonaws.com}. */
    LEGACY_REGIONAL("a legacy regional endpoint"),
    /** {@code s3.dualstack.R...}. */
    DUAL_STACK("a dual-stack endpoint"),
    /** {@code s3-fips[.dualstack].R...}, {@code s3-fips-R.amazonaws.com}. */
    FIPS("a FIPS endpoint"),
    /** {@code ...s3-accesspoint...}. */
    ACCESS_POINT("an access point endpoint"),
    /** {@code s3express-<zone id>.R.amazonaws.com}. */
    DIRECTORY_ZONAL("a zonal endpoint of directory buckets (S3 Express One Zone)"),
    /** {@code ...vpce-<id>.s3.R.vpce.amazonaws.com}. */
    PRIVATE_LINK("a PrivateLink interface endpoint of Amazon S3");

    private final String description;

    Form(String description) {
      this.description = description;
    }

    /** How the form is named in logs and docs. */
    public String description() {
      return description;
    }
  }

  /** Environment variables and system properties with which the AWS SDK for Java 2.x takes an endpoint. */
  static final String ENV_ENDPOINT_S3 = "AWS_ENDPOINT_URL_S3";
  static final String ENV_ENDPOINT = "AWS_ENDPOINT_URL";
  static final String ENV_IGNORE = "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS";
  static final String PROP_ENDPOINT_S3 = "aws.endpointUrlS3";
  static final String PROP_ENDPOINT = "aws.endpointUrl";
  static final String PROP_IGNORE = "aws.ignoreConfiguredEndpointUrls";

  private static final String REGION = "((?:[a-z]{2}(?:-gov)?)-[a-z]+-\\d+)";
  private static final String SUFFIX = "\\.amazonaws\\.com(\\.cn)?";
  private static final Pattern GLOBAL = Pattern.compile("s3\\.amazonaws\\.com");
  private static final Pattern EXTERNAL_1 = Pattern.compile("s3-external-1\\.amazonaws\\.com");
  private static final Pattern REGIONAL = Pattern.compile("s3\\." + REGION + SUFFIX);
  private static final Pattern LEGACY_DASH = Pattern.compile("s3-" + REGION + "\\.amazonaws\\.com");
  private static final Pattern DUAL_STACK = Pattern.compile("s3\\.dualstack\\." + REGION + SUFFIX);
  private static final Pattern FIPS = Pattern.compile("s3-fips\\.(?:dualstack\\.)?" + REGION + SUFFIX);
  private static final Pattern FIPS_LEGACY = Pattern.compile("s3-fips-" + REGION + "\\.amazonaws\\.com");
  private static final Pattern ACCESS_POINT = Pattern.compile(
      "(?:[a-z0-9][a-z0-9-]*\\.)?s3-accesspoint(?:-fips)?(?:\\.dualstack)?\\." + REGION + SUFFIX);
  private static final Pattern DIRECTORY_ZONAL = Pattern.compile(
      "s3express-[a-z0-9]+(?:-[a-z0-9]+)*-az\\d+(?:\\.dualstack)?\\." + REGION + "\\.amazonaws\\.com");
  private static final Pattern PRIVATE_LINK = Pattern.compile(
      "(?:bucket\\.|accesspoint\\.)?vpce-[a-z0-9]+(?:-[a-z0-9]+)*\\.s3\\." + REGION + "\\.vpce" + SUFFIX);
  /** A directory bucket: {@code base-name--zone-id--x-s3}. */
  private static final Pattern DIRECTORY_BUCKET = Pattern.compile(".+--[a-z0-9]+(?:-[a-z0-9]+)*-az\\d+--x-s3");
  /** An access point ARN of the S3 service (not Outposts, not Object Lambda, not multi-region: no region). */
  private static final Pattern ACCESS_POINT_ARN = Pattern.compile(
      "arn:aws(?:-cn|-us-gov)?:s3:" + REGION + ":\\d{12}:accesspoint[/:][a-z0-9-]+");

  private final Form form;
  private final String reason;

  private AmazonS3Endpoint(Form form, String reason) {
    this.form = form;
    this.reason = reason;
  }

  /**
   * Decides for a store's configuration, with the process's environment variables and system properties (the SDK's
   * own endpoint settings).
   *
   * @param endpointUrl the normalised endpoint ({@code scheme://host[:port]}), or null when none is set
   * @param bucket the bucket's name as the store uses it
   */
  public static AmazonS3Endpoint of(String endpointUrl, String bucket) {
    return of(endpointUrl, bucket, System::getenv, System::getProperty);
  }

  /**
   * {@link #of(String, String)} with the environment and system properties given (tests).
   *
   * @param environment an environment variable's value, or null
   * @param systemProperties a system property's value, or null
   */
  static AmazonS3Endpoint of(String endpointUrl, String bucket, UnaryOperator<String> environment,
      UnaryOperator<String> systemProperties) {
    Objects.requireNonNull(bucket, "bucket");
    if (bucket.endsWith(".mrap")) {
      return notAmazonS3("the bucket name " + bucket + " is a Multi-Region Access Point's, whose writers in two regions"
          + " are not ordered by one store");
    }
    if (endpointUrl != null) {
      return ofHost(endpointUrl, "fs.s3a.endpoint " + endpointUrl);
    }
    String fromSdk = sdkEndpoint(environment, systemProperties);
    if (fromSdk != null) {
      return ofHost(fromSdk, "no fs.s3a.endpoint; the AWS SDK's configured endpoint " + fromSdk);
    }
    if (bucket.startsWith("arn:")) {
      return ACCESS_POINT_ARN.matcher(bucket).matches()
          ? amazonS3(Form.ACCESS_POINT_ARN, bucket)
          : notAmazonS3("the bucket " + bucket + " is an ARN of another kind than an S3 access point in a region");
    }
    if (DIRECTORY_BUCKET.matcher(bucket).matches()) {
      return amazonS3(Form.DIRECTORY_BUCKET, bucket);
    }
    return amazonS3(Form.SDK_DEFAULT, "bucket " + bucket);
  }

  /**
   * The endpoint the AWS SDK for Java 2.x takes from its environment when the client is given none (its
   * "service-specific endpoints": the S3 one wins over the general one, a system property over an environment
   * variable), or null. The SDK for Java 1.x reads none of them; a store on it is checked all the same when one is
   * set, which only costs the check. Endpoints in the shared AWS config file ({@code endpoint_url}) are not read here
   * (docs/stores.md).
   */
  private static String sdkEndpoint(UnaryOperator<String> env, UnaryOperator<String> props) {
    if ("true".equalsIgnoreCase(trim(props.apply(PROP_IGNORE)))
        || "true".equalsIgnoreCase(trim(env.apply(ENV_IGNORE)))) {
      return null;
    }
    for (String v : new String[] {trim(props.apply(PROP_ENDPOINT_S3)), trim(env.apply(ENV_ENDPOINT_S3)),
        trim(props.apply(PROP_ENDPOINT)), trim(env.apply(ENV_ENDPOINT))}) {
      if (v != null && !v.isEmpty()) {
        return v;
      }
    }
    return null;
  }

  private static String trim(String s) {
    return s == null ? null : s.trim();
  }

  private static AmazonS3Endpoint ofHost(String url, String origin) {
    URI uri;
    try {
      uri = URI.create(url.contains("://") ? url : "https://" + url);
    } catch (IllegalArgumentException e) {
      return notAmazonS3(origin + " is not a URL");
    }
    String host = uri.getHost() == null ? "" : uri.getHost().toLowerCase(Locale.ROOT);
    int port = uri.getPort();
    if (port != -1 && port != 80 && port != 443) {
      return notAmazonS3(origin + ": Amazon S3 listens on ports 80 and 443 only");
    }
    Form form = formOf(host);
    return form == null
        ? notAmazonS3(origin + " is not an Amazon S3 endpoint form (docs/stores.md)")
        : amazonS3(form, origin);
  }

  /** The form of an Amazon S3 endpoint's host name, or null. */
  static Form formOf(String host) {
    if (GLOBAL.matcher(host).matches()) {
      return Form.GLOBAL;
    }
    if (EXTERNAL_1.matcher(host).matches()) {
      return Form.LEGACY_REGIONAL;
    }
    if (partitionMatches(REGIONAL, host)) {
      return Form.REGIONAL;
    }
    if (partitionMatches(LEGACY_DASH, host)) {
      return Form.LEGACY_REGIONAL;
    }
    if (partitionMatches(DUAL_STACK, host)) {
      return Form.DUAL_STACK;
    }
    if (partitionMatches(FIPS, host) || partitionMatches(FIPS_LEGACY, host)) {
      return Form.FIPS;
    }
    if (partitionMatches(ACCESS_POINT, host)) {
      return Form.ACCESS_POINT;
    }
    if (partitionMatches(DIRECTORY_ZONAL, host)) {
      return Form.DIRECTORY_ZONAL;
    }
    if (partitionMatches(PRIVATE_LINK, host)) {
      return Form.PRIVATE_LINK;
    }
    return null;
  }

  /** The host matches, and the China regions ({@code cn-}) and only they are under {@code amazonaws.com.cn}. */
  private static boolean partitionMatches(Pattern p, String host) {
    Matcher m = p.matcher(host);
    if (!m.matches()) {
      return false;
    }
    boolean chinaRegion = m.group(1).startsWith("cn-");
    boolean chinaDomain = host.endsWith(".amazonaws.com.cn");
    return chinaRegion == chinaDomain;
  }

  private static AmazonS3Endpoint amazonS3(Form form, String origin) {
    return new AmazonS3Endpoint(form, form.description() + " (" + origin + ")");
  }

  /** A store that is not taken for Amazon S3, for {@code why}. */
  static AmazonS3Endpoint notAmazonS3(String why) {
    return new AmazonS3Endpoint(null, why);
  }

  /** Whether the store is Amazon S3 in one of the forms recognised. */
  public boolean isAmazonS3() {
    return form != null;
  }

  /** How it was recognised, or null when it was not. */
  public Form form() {
    return form;
  }

  /** Why: the form and the setting it was read from, or why the store is not taken for Amazon S3. */
  public String reason() {
    return reason;
  }

  @Override
  public String toString() {
    return (form == null ? "not Amazon S3: " : "Amazon S3: ") + reason;
  }
}
