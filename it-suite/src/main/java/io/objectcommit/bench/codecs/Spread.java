package io.objectcommit.bench.codecs;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Median and range of a few measurements (the median of an even count is the mean of the middle two).
 *
 * @param median the median
 * @param min the smallest
 * @param max the largest
 */
record Spread(double median, double min, double max) {

  static Spread of(List<? extends Number> values) {
    if (values.isEmpty()) {
      throw new IllegalArgumentException("no values");
    }
    List<Double> sorted = new ArrayList<>();
    values.forEach(v -> sorted.add(v.doubleValue()));
    Collections.sort(sorted);
    int n = sorted.size();
    double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    return new Spread(median, sorted.get(0), sorted.get(n - 1));
  }

  /** The same spread divided by {@code d} (milliseconds to seconds, bytes to megabytes). */
  Spread div(double d) {
    return new Spread(median / d, min / d, max / d);
  }

  /** {@code median [min-max]} with the format given for each. */
  String format(String number) {
    return String.format(number + " [" + number + "-" + number + "]", median, min, max);
  }

  Map<String, Object> toMap() {
    return Map.of("median", median, "min", min, "max", max);
  }
}
