package dev.aerun.runtime.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.junit.jupiter.api.Test;

class AcceptEncodingChoiceTest {
  private final AcceptEncodingChoice choice =
      new AcceptEncodingChoice(List.of("zstd", "br", "gzip"));

  private static HttpFields accept(String... values) {
    HttpFields.Mutable fields = HttpFields.build();
    fields.add(HttpHeader.HOST, "localhost");
    for (String value : values) {
      fields.add(HttpHeader.ACCEPT_ENCODING, value);
    }
    return fields;
  }

  private String choose(String... values) {
    return choice.choose(accept(values));
  }

  @Test
  void theHighestWeightWins() {
    assertEquals("gzip", choose("gzip;q=1.0, br;q=0.5"));
    assertEquals("br", choose("br;q=1, gzip;q=0.8"));
    assertEquals("gzip", choose("zstd;q=0.1, br;q=0.2, gzip;q=0.3"));
  }

  @Test
  void equalWeightsGoToOurOrder() {
    assertEquals("zstd", choose("gzip, br, zstd"));
    assertEquals("br", choose("gzip;q=0.5, br;q=0.5"));
    assertEquals("zstd", choose("gzip", "zstd;q=1"));
  }

  @Test
  void aWeightOfZeroIsNeverChosen() {
    assertEquals("gzip", choose("br;q=0, gzip;q=0.001"));
    assertNull(choose("gzip;q=0"));
    assertNull(choose("gzip;q=not-a-number"));
  }

  @Test
  void starWeighsWhatIsNotNamed() {
    assertEquals("zstd", choose("*"));
    assertEquals("gzip", choose("gzip;q=0.8, *;q=0.5"));
    assertEquals("zstd", choose("gzip;q=0.8, *"));
    assertEquals("br", choose("*", "zstd;q=0"));
    assertNull(choose("*;q=0"));
  }

  @Test
  void identityIsNotAChoice() {
    assertEquals("gzip", choose("identity;q=0, gzip"));
    assertNull(choose("identity;q=0"));
    assertNull(choose("identity, deflate, compress"));
    assertNull(choose(""));
  }

  @Test
  void onlyWeightsOrStarNeedAChoice() {
    assertTrue(AcceptEncodingChoice.unweighted(accept()));
    assertTrue(AcceptEncodingChoice.unweighted(accept("gzip, deflate, br, zstd", "identity")));
    assertFalse(AcceptEncodingChoice.unweighted(accept("gzip", "br;q=0.5")));
    assertFalse(AcceptEncodingChoice.unweighted(accept("*")));
  }
}
