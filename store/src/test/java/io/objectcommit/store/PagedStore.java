package io.objectcommit.store;

import java.io.InputStream;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** A minimal store for these tests: LIST in pages of {@code pageSize}, PUT remembered; everything else refused. */
public final class PagedStore {

  public final TreeMap<String, byte[]> objects = new TreeMap<>();
  final List<Integer> listRequests = new ArrayList<>();
  private final int pageSize;

  public PagedStore(int pageSize) {
    this.pageSize = pageSize;
  }

  public ObjectStore store() {
    return (ObjectStore) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {ObjectStore.class},
        (proxy, method, args) -> {
          switch (method.getName()) {
            case "bucket":
              return "bucket";
            case "pathOf":
              return "s3://bucket/" + args[0];
            case "list":
              return list((String) args[0], (String) args[2], (Integer) args[3]);
            case "put":
              try (InputStream in = ((Payload) args[1]).open()) {
                objects.put((String) args[0], in.readAllBytes());
              }
              return new ObjectInfo((String) args[0], objects.get(args[0]).length, "etag", 0);
            case "getIOStatistics":
              return null;
            case "toString":
              return "PagedStore";
            default:
              throw new UnsupportedOperationException(method.getName());
          }
        });
  }

  private ListPage list(String prefix, String token, int maxKeys) {
    listRequests.add(maxKeys);
    List<ObjectInfo> page = new ArrayList<>();
    Map<String, byte[]> tail = token == null ? objects.tailMap(prefix, true) : objects.tailMap(token, false);
    String last = null;
    for (Map.Entry<String, byte[]> e : tail.entrySet()) {
      if (!e.getKey().startsWith(prefix)) {
        break;
      }
      if (page.size() == Math.min(pageSize, maxKeys)) {
        return new ListPage(page, List.of(), last);
      }
      page.add(new ObjectInfo(e.getKey(), e.getValue().length, "etag", 0));
      last = e.getKey();
    }
    return new ListPage(page, List.of(), null);
  }

}
