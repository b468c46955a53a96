package io.objectcommit.store;

import java.util.List;
import java.util.Optional;

/** One page of a listing: objects, common prefixes (with a delimiter), and the token of the next page. */
public final class ListPage {

  private final List<ObjectInfo> objects;
  private final List<String> prefixes;
  private final String nextToken;

  public ListPage(List<ObjectInfo> objects, List<String> prefixes, String nextToken) {
    this.objects = List.copyOf(objects);
    this.prefixes = List.copyOf(prefixes);
    this.nextToken = nextToken;
  }

  public List<ObjectInfo> objects() {
    return objects;
  }

  /** Common prefixes ("directories"), each ending with the delimiter; empty without a delimiter. */
  public List<String> prefixes() {
    return prefixes;
  }

  /** The continuation token of the next page, empty on the last page. */
  public Optional<String> nextToken() {
    return Optional.ofNullable(nextToken);
  }
}
