package dev.aerun.runtime.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class CanonicalPathTest {
  @ParameterizedTest
  @CsvSource({
    "//admin//page.html, /admin/page.html",
    "//admin/page.html, /admin/page.html",
    "/admin//page.html, /admin/page.html",
    "///, /",
    "//, /",
    "'', /",
    "/x/../admin/page.html, /admin/page.html",
    "/../../admin, /admin",
    "/admin/./page, /admin/page",
    "/admin/., /admin/",
    "/admin/.., /",
    "/admin//, /admin/",
    "//x//y, /x/y",
    "admin/page, /admin/page",
    "/a/.hidden/..b, /a/.hidden/..b",
  })
  void everySpellingBecomesOne(String spelled, String canonical) {
    assertEquals(canonical, CanonicalPath.of(spelled));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"/", "/admin/page.html", "/admin/", "/a/.well-known/x", "/100%", "/a/..b"})
  void aCanonicalPathIsReturnedAsItIs(String path) {
    assertSame(path, CanonicalPath.of(path));
  }

  @org.junit.jupiter.api.Test
  void nullStaysNull() {
    assertNull(CanonicalPath.of(null));
  }
}
