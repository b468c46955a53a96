package io.objectcommit.bench;

import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** A small JSON writer for the benchmark report: maps, lists, strings, numbers, booleans and null. */
public final class Json {

  private Json() {
  }

  /** {@code value} as indented JSON; a non-finite double becomes {@code null}. */
  public static String write(Object value) {
    StringBuilder sb = new StringBuilder();
    write(sb, value, "");
    return sb.append('\n').toString();
  }

  private static void write(StringBuilder sb, Object v, String indent) {
    if (v == null) {
      sb.append("null");
    } else if (v instanceof String s) {
      string(sb, s);
    } else if (v instanceof Double d) {
      sb.append(d.isNaN() || d.isInfinite() ? "null" : d.toString());
    } else if (v instanceof Float f) {
      write(sb, f.doubleValue(), indent);
    } else if (v instanceof Number || v instanceof Boolean) {
      sb.append(v);
    } else if (v instanceof Map<?, ?> m) {
      container(sb, '{', '}', m.entrySet().iterator(), indent, (e, in) -> {
        Map.Entry<?, ?> entry = (Map.Entry<?, ?>) e;
        string(sb, String.valueOf(entry.getKey()));
        sb.append(": ");
        write(sb, entry.getValue(), in);
      });
    } else if (v instanceof List<?> l) {
      container(sb, '[', ']', l.iterator(), indent, (e, in) -> write(sb, e, in));
    } else {
      throw new IllegalArgumentException("cannot write a " + v.getClass().getName() + " as JSON: " + v);
    }
  }

  private interface Element {
    void write(Object element, String indent);
  }

  private static void container(StringBuilder sb, char open, char close, Iterator<?> it, String indent,
      Element element) {
    sb.append(open);
    if (!it.hasNext()) {
      sb.append(close);
      return;
    }
    String inner = indent + "  ";
    while (it.hasNext()) {
      sb.append('\n').append(inner);
      element.write(it.next(), inner);
      if (it.hasNext()) {
        sb.append(',');
      }
    }
    sb.append('\n').append(indent).append(close);
  }

  private static void string(StringBuilder sb, String s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> {
          if (c < 0x20) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    sb.append('"');
  }
}
