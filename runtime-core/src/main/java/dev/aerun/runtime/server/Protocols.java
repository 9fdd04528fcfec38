package dev.aerun.runtime.server;

import java.util.Locale;
import java.util.Objects;

/**
 * What the public server speaks beside plain HTTP/1.1, the same in both modes. Immutable.
 *
 * @param compression whether responses are compressed for clients that accept it and gzip request
 *     bodies inflated ({@link BodyCompressionHandler})
 * @param h2c whether HTTP/2 over cleartext is spoken on the same port, and how a connection may
 *     start it
 */
public record Protocols(boolean compression, H2c h2c) {
  /** The system property (in the descriptor, or {@code -D}) that turns compression off. */
  public static final String COMPRESSION_PROPERTY = "appengine.use.compression";

  /** How HTTP/2 cleartext may start on a connection of the public port. */
  public enum H2c {
    /** HTTP/1.1 only. */
    OFF,
    /**
     * HTTP/1.1, and HTTP/2 for a client that opens the connection with HTTP/2's preface (prior
     * knowledge, what Cloud Run's front end sends to a container that speaks h2c).
     */
    PRIOR_KNOWLEDGE,
    /**
     * As {@link #PRIOR_KNOWLEDGE}, and an HTTP/1.1 request with {@code Upgrade: h2c} switches its
     * connection to HTTP/2. Off by default: behind a reverse proxy that passes {@code Upgrade}
     * through, it lets a client take its connection out of the proxy's HTTP/1.1 rules.
     */
    UPGRADE;

    /** {@code off}, {@code on} (prior knowledge) or {@code upgrade}. */
    public static H2c parse(String value) {
      return switch (value.trim().toLowerCase(Locale.ROOT)) {
        case "off" -> OFF;
        case "on" -> PRIOR_KNOWLEDGE;
        case "upgrade" -> UPGRADE;
        default ->
            throw new IllegalArgumentException("expected on, off or upgrade, not '" + value + "'");
      };
    }
  }

  public Protocols {
    Objects.requireNonNull(h2c, "h2c");
  }

  /** The defaults: compression on, h2c with prior knowledge. */
  public static Protocols defaults() {
    return new Protocols(true, H2c.PRIOR_KNOWLEDGE);
  }

  public Protocols withCompression(boolean on) {
    return new Protocols(on, h2c);
  }

  public Protocols withH2c(H2c newH2c) {
    return new Protocols(compression, newH2c);
  }
}
