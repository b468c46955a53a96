package io.objectcommit.it.seeded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SeedSetTest {

  @Test
  void buildSetByDefaultCountRangeAndList() {
    assertEquals(SeedSet.BUILD, SeedSet.parse(null));
    assertEquals(SeedSet.BUILD, SeedSet.parse(" "));
    assertEquals(List.of(1L, 2L, 3L), SeedSet.parse("3"));
    assertEquals(List.of(7L, 8L, 9L), SeedSet.parse("7..9"));
    assertEquals(List.of(4L, 11L), SeedSet.parse("4, 11"));
    assertEquals(List.of(5L), SeedSet.parse("5,"));
  }

  @Test
  void badValueNamesTheProperty() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SeedSet.parse("twenty"));
    assertTrue(e.getMessage().contains(SeedSet.PROPERTY), e.getMessage());
  }
}
