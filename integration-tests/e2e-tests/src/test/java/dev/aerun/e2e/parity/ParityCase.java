package dev.aerun.e2e.parity;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * One request of the corpus: what to send, to which runtime variants, and the status every
 * configuration must answer (a guard against a corpus that compares two identical failures).
 *
 * @param name the case's name in test reports
 * @param method the request method
 * @param target the request target as sent, encoded characters and all
 * @param headers header fields in the order sent, names spelled as sent
 * @param body the body and its framing
 * @param host the {@code Host} header: {@link #RUNTIME_HOST} for {@code 127.0.0.1:<port>}, null for
 *     none
 * @param raw for malformed requests: the exact request text ({@link #RUNTIME_HOST} replaced), sent
 *     instead of everything above
 * @param variants the runtime variants the case runs against
 * @param expectedStatuses the statuses a configuration may answer (one, unless the EE versions
 *     differ; -1 stands for no answer at all)
 */
record ParityCase(
    String name,
    String method,
    String target,
    List<Header> headers,
    Body body,
    String host,
    String raw,
    Set<Variant> variants,
    Set<Integer> expectedStatuses) {

  /** Stands for the runtime's own {@code 127.0.0.1:<port>}, which differs per runtime. */
  static final String RUNTIME_HOST = "{runtime}";

  /** A header field as sent. */
  record Header(String name, String value) {}

  /** Which of a runtime's variants (trust configuration) a case is sent to. */
  enum Variant {
    /** No trusted proxies: every platform header comes from an untrusted client. */
    UNTRUSTED,
    /** {@code --trusted-proxies 127.0.0.1}: the test client is the platform front end. */
    TRUSTED,
    /** Trusted, and {@code -Dappengine.use.allheaders=true}. */
    ALL_HEADERS,
    /**
     * {@code --forwarded-from 127.0.0.1}: the test client is a TLS-terminating front end trusted
     * for the forwarding headers only.
     */
    FORWARDING
  }

  static Builder request(String name, String method, String target) {
    return new Builder(name, method, target);
  }

  /** A request sent byte for byte as given. */
  static Builder raw(String name, String text) {
    Builder b = new Builder(name, null, null);
    b.raw = text;
    return b;
  }

  boolean isRaw() {
    return raw != null;
  }

  @Override
  public String toString() {
    return name;
  }

  /** Builds a case; by default untrusted only, expecting 200. */
  static final class Builder {
    private final String name;
    private final String method;
    private final String target;
    private final List<Header> headers = new ArrayList<>();
    private Body body = Body.NONE;
    private String host = RUNTIME_HOST;
    private String raw;
    private Set<Variant> variants = EnumSet.of(Variant.UNTRUSTED);
    private Set<Integer> expectedStatuses = Set.of(200);

    private Builder(String name, String method, String target) {
      this.name = name;
      this.method = method;
      this.target = target;
    }

    /** Adds header fields: name, value, name, value… in order. */
    Builder headers(String... namesAndValues) {
      for (int i = 0; i < namesAndValues.length; i += 2) {
        headers.add(new Header(namesAndValues[i], namesAndValues[i + 1]));
      }
      return this;
    }

    Builder body(Body newBody) {
      this.body = newBody;
      return this;
    }

    /** Sends this {@code Host} instead of the runtime's address, or none if null. */
    Builder host(String newHost) {
      this.host = newHost;
      return this;
    }

    Builder variants(Variant first, Variant... rest) {
      this.variants = EnumSet.of(first, rest);
      return this;
    }

    Builder allVariants() {
      this.variants = EnumSet.allOf(Variant.class);
      return this;
    }

    Builder expect(Integer... statuses) {
      this.expectedStatuses = Set.of(statuses);
      return this;
    }

    ParityCase build() {
      return new ParityCase(
          name, method, target, List.copyOf(headers), body, host, raw, variants, expectedStatuses);
    }
  }
}
