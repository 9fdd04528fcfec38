package dev.aerun.runtime.statics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.appengine.descriptor.AppEngineWebXml;
import dev.aerun.appengine.descriptor.AppEngineWebXmlParser;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StaticFileRulesTest {

  static AppEngineWebXml descriptor(String body) throws Exception {
    String xml =
        "<appengine-web-app xmlns=\"http://appengine.google.com/ns/1.0\">"
            + body
            + "</appengine-web-app>";
    return AppEngineWebXmlParser.parse(
        new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), "appengine-web.xml");
  }

  static StaticFileRules rules(String body) throws Exception {
    return StaticFileRules.from(descriptor(body));
  }

  @Test
  void absentStaticFilesMakesEveryFileStaticWithTenMinutes() throws Exception {
    StaticFileRules rules = rules("");
    assertEquals(600, rules.match("/a/b/c.png").orElseThrow().expirationSeconds());
    assertTrue(rules.match("/index.html").isPresent());
  }

  @Test
  void emptyStaticFilesMakesEveryFileStatic() throws Exception {
    assertTrue(rules("<static-files/>").match("/x.txt").isPresent());
  }

  @Test
  void excludesApplyWhenEveryFileIsIncluded() throws Exception {
    StaticFileRules rules = rules("<static-files><exclude path=\"/private/**\"/></static-files>");
    assertFalse(rules.match("/private/a/b.txt").isPresent());
    assertTrue(rules.match("/public.txt").isPresent());
  }

  @Test
  void jspAndWebInfAndMetaInfAreNeverStatic() throws Exception {
    StaticFileRules rules = rules("<static-files><include path=\"/**\"/></static-files>");
    assertFalse(rules.match("/page.jsp").isPresent());
    assertFalse(rules.match("/page.JSPX").isPresent());
    assertFalse(rules.match("/WEB-INF/web.xml").isPresent());
    assertFalse(rules.match("/web-inf/web.xml").isPresent());
    assertFalse(rules.match("/a/META-INF/MANIFEST.MF").isPresent());
    assertTrue(rules.match("/WEB-INFO/x.txt").isPresent());
  }

  @Test
  void singleStarStopsAtSlashDoubleStarDoesNot() throws Exception {
    StaticFileRules rules = rules("<static-files><include path=\"/img/*.png\"/></static-files>");
    assertTrue(rules.match("/img/a.png").isPresent());
    assertFalse(rules.match("/img/sub/a.png").isPresent());
    assertFalse(rules.match("/a.png").isPresent());
    StaticFileRules deep = rules("<static-files><include path=\"/**.png\"/></static-files>");
    assertTrue(deep.match("/a.png").isPresent());
    assertTrue(deep.match("/img/sub/a.png").isPresent());
    assertFalse(deep.match("/a.pngx").isPresent());
  }

  @Test
  void pathologicalGlobOfManyDoubleStarsFinishes() throws Exception {
    // As a regular expression (.*a){40}b this backtracks for longer than anyone waits.
    String pattern = "/" + "**a".repeat(40) + "b";
    StaticFileRules rules =
        rules("<static-files><include path=\"" + pattern + "\"/></static-files>");
    String path = "/" + "a".repeat(5000);
    assertTimeoutPreemptively(
        Duration.ofSeconds(60), () -> assertFalse(rules.match(path).isPresent()));
    assertTrue(rules.match(path + "b").isPresent());
    StaticFileRules slashes =
        rules("<static-files><exclude path=\"/" + "**".repeat(200) + "/x\"/></static-files>");
    assertTimeoutPreemptively(
        Duration.ofSeconds(60),
        () -> assertTrue(slashes.match("/a".repeat(3000) + "/y").isPresent()));
    assertFalse(slashes.match("/a/b/x").isPresent());
  }

  @Test
  void globsMatchLikeThePlatform() {
    assertTrue(StaticFileRules.glob("/**").matches("/"));
    assertTrue(StaticFileRules.glob("/**").matches("/a/b/c"));
    assertTrue(StaticFileRules.glob("*.css").matches("/a.css"));
    assertFalse(StaticFileRules.glob("*.css").matches("/d/a.css"));
    assertTrue(StaticFileRules.glob("/a/*/c").matches("/a/b/c"));
    assertTrue(StaticFileRules.glob("/a/*/c").matches("/a//c"));
    assertFalse(StaticFileRules.glob("/a/*/c").matches("/a/b/b/c"));
    assertTrue(StaticFileRules.glob("/a/**/c").matches("/a/b/b/c"));
    assertTrue(StaticFileRules.glob("/a**c").matches("/ac"));
    assertFalse(StaticFileRules.glob("/abc").matches("/ab"));
    assertFalse(StaticFileRules.glob("/ab").matches("/abc"));
    assertTrue(StaticFileRules.glob("/x***y").matches("/x/z/y"));
  }

  @Test
  void hugeExpirationIsServedAsAYear() throws Exception {
    long year = 365L * 24 * 60 * 60;
    assertEquals(year, StaticFileRules.MAX_EXPIRATION_SECONDS);
    StaticFileRules rules =
        rules(
            "<default-expiration>99999999999999d</default-expiration>"
                + "<static-files><include path=\"/a/**\" expiration=\"400d\"/>"
                + "<include path=\"/b/**\" expiration=\"365d\"/>"
                + "<include path=\"/c/**\"/></static-files>");
    assertEquals(year, rules.match("/a/x").orElseThrow().expirationSeconds());
    assertEquals(year, rules.match("/b/x").orElseThrow().expirationSeconds());
    assertEquals(year, rules.match("/c/x").orElseThrow().expirationSeconds());
    assertEquals(10, new StaticFileRules.Rule(10, Map.of()).expirationSeconds());
  }

  @Test
  void patternCharactersOtherThanStarAreLiteral() throws Exception {
    StaticFileRules rules = rules("<static-files><include path=\"/a.b+(c)?.txt\"/></static-files>");
    assertTrue(rules.match("/a.b+(c)?.txt").isPresent());
    assertFalse(rules.match("/aXb+(c)?.txt").isPresent());
  }

  @Test
  void patternWithoutLeadingSlashGetsOne() throws Exception {
    assertTrue(
        rules("<static-files><include path=\"**.css\"/></static-files>")
            .match("/x/y.css")
            .isPresent());
  }

  @Test
  void firstMatchingIncludeGivesExpirationAndHeaders() throws Exception {
    StaticFileRules rules =
        rules(
            "<static-files>"
                + "<include path=\"/img/**\" expiration=\"1d 4h 5m\">"
                + "<http-header name=\"X-Kind\" value=\"image\"/></include>"
                + "<include path=\"/**\" expiration=\"10s\"/>"
                + "</static-files>");
    StaticFileRules.Rule image = rules.match("/img/a.png").orElseThrow();
    assertEquals(86_400 + 4 * 3_600 + 5 * 60, image.expirationSeconds());
    assertEquals(Map.of("X-Kind", "image"), image.httpHeaders());
    StaticFileRules.Rule other = rules.match("/a.txt").orElseThrow();
    assertEquals(10, other.expirationSeconds());
    assertEquals(Map.of(), other.httpHeaders());
  }

  @Test
  void defaultExpirationAppliesToIncludesWithoutOne() throws Exception {
    StaticFileRules rules =
        rules(
            "<default-expiration>2h</default-expiration>"
                + "<static-files><include path=\"/**.css\"/></static-files>");
    assertEquals(7_200, rules.match("/a.css").orElseThrow().expirationSeconds());
    assertFalse(rules.match("/a.js").isPresent());
  }

  @Test
  void excludeWinsOverInclude() throws Exception {
    StaticFileRules rules =
        rules("<static-files><include path=\"/**\"/><exclude path=\"/**.secret\"/></static-files>");
    assertFalse(rules.match("/a/b.secret").isPresent());
  }

  @Test
  void publicRootIsNormalised() throws Exception {
    assertEquals("/static", rules("<public-root>/static/</public-root>").publicRoot());
    assertEquals("/static", rules("<public-root>static</public-root>").publicRoot());
    assertEquals("", rules("<public-root>/</public-root>").publicRoot());
    assertEquals("", rules("").publicRoot());
  }

  @Test
  void publicRootUnderWebInfServesNothing() throws Exception {
    assertFalse(rules("<public-root>/WEB-INF</public-root>").match("/web.xml").isPresent());
  }
}
