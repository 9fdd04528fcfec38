package dev.aerun.runtime.server;

/**
 * What the public server speaks beside plain HTTP/1.1, the same in both modes. Immutable.
 *
 * @param compression whether responses are compressed for clients that accept it and gzip request
 *     bodies inflated ({@link BodyCompressionHandler})
 */
public record Protocols(boolean compression) {
  /** The system property (in the descriptor, or {@code -D}) that turns compression off. */
  public static final String COMPRESSION_PROPERTY = "appengine.use.compression";

  /** The defaults: compression on. */
  public static Protocols defaults() {
    return new Protocols(true);
  }

  public Protocols withCompression(boolean on) {
    return new Protocols(on);
  }
}
