package dev.aerun.e2e.parity;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.e2e.parity.ParityCase.Variant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The corpus cases the h2c transports leave out, because HTTP/2 cannot express them: each says why,
 * and they stay a small part of the corpus, so the parity suite over h2c cannot shrink unnoticed.
 * The cases themselves are HTTP/1.1 syntax (raw texts, a second {@code Host}, {@code Connection}
 * fields …); H2cTest covers HTTP/2's own counterparts (header-list limit, a body that never comes).
 */
class H2cCorpusTest {
  @ParameterizedTest
  @EnumSource(Variant.class)
  void casesLeftOutOverH2c_haveNoHttp2Form_andAreFew(Variant variant) {
    List<ParityCase> corpus = Corpus.cases(variant);
    Map<String, String> leftOut = new TreeMap<>();
    for (ParityCase c : corpus) {
      Optional<String> reason = H2cClient.cannotSend(c);
      reason.ifPresent(r -> leftOut.put(c.name(), r));
    }
    String listed = String.join("\n", leftOut.entrySet().stream().map(Object::toString).toList());
    assertTrue(
        leftOut.size() * 5 <= corpus.size(),
        leftOut.size() + " of " + corpus.size() + " cases left out over h2c:\n" + listed);
    assertTrue(
        leftOut.values().stream().noneMatch(String::isBlank), "every case says why:\n" + listed);
    ParityCase plainGet = ParityCase.request("plain-get", "GET", "/request-info").build();
    assertTrue(H2cClient.cannotSend(plainGet).isEmpty(), "a plain GET goes over h2c");
  }
}
