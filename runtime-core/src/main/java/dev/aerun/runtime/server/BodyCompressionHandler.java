package dev.aerun.runtime.server;

import java.util.List;
import java.util.function.Supplier;
import java.util.logging.Logger;
import java.util.zip.DataFormatException;
import java.util.zip.ZipException;
import org.eclipse.jetty.compression.Compression;
import org.eclipse.jetty.compression.brotli.BrotliCompression;
import org.eclipse.jetty.compression.brotli.BrotliEncoderConfig;
import org.eclipse.jetty.compression.gzip.GzipCompression;
import org.eclipse.jetty.compression.gzip.GzipEncoderConfig;
import org.eclipse.jetty.compression.server.CompressionConfig;
import org.eclipse.jetty.compression.server.CompressionHandler;
import org.eclipse.jetty.compression.zstandard.ZstandardCompression;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty's compression, configured as the runtime serves it in both modes: response bodies are
 * compressed for clients that accept it, gzip request bodies are inflated before anyone reads them.
 *
 * <ul>
 *   <li>Responses: zstandard, brotli or gzip, the first of those the client accepts (Jetty's
 *       negotiation: an encoding with {@code q=0} is refused, other weights do not reorder). A body
 *       under {@value #MIN_COMPRESS_SIZE} bytes, an already compressed type (images, audio, video,
 *       fonts, archives), an app's own {@code Content-Encoding} and error statuses are sent as they
 *       are. Every method is compressed but {@code HEAD}, whose headers follow what the body would
 *       have been uncompressed. {@code Vary: Accept-Encoding} is set; an {@code ETag} gets the
 *       encoding's suffix, which conditional requests have taken off again before the app compares
 *       them. A flush sends what was written so far (gzip flushes its deflater).
 *   <li>Requests: a body with {@code Content-Encoding: gzip} reaches the next handler inflated, of
 *       unknown length: its {@code Content-Encoding} and {@code Content-Length} are renamed {@code
 *       X-Content-Encoding} and {@code X-Content-Length}. Handlers after this one count the
 *       inflated bytes (so the body limit bounds what a small compressed body may become), and a
 *       body that is not valid gzip fails the read with 400. Other encodings reach the app as sent.
 * </ul>
 *
 * <p>An encoding whose native library cannot load on this platform (brotli, zstandard) is left out
 * with a warning; gzip is always there.
 */
public final class BodyCompressionHandler extends CompressionHandler {
  private static final Logger log = Logger.getLogger(BodyCompressionHandler.class.getName());

  /** Responses shorter than this are not worth compressing. */
  public static final int MIN_COMPRESS_SIZE = 256;

  /** The only request encoding inflated, as the platform does. */
  private static final String INFLATED_ENCODING = "gzip";

  /**
   * Where Jetty's inflater moves a request's {@code Content-Length}: a request with it has a body
   * of unknown length.
   */
  public static final String INFLATED_LENGTH = "X-Content-Length";

  /** Where Jetty's inflater moves the request's {@code Content-Encoding}. */
  private static final String INFLATED_HEADER = "X-Content-Encoding";

  /**
   * Brotli's quality for answers compressed as they are sent: its default (11) is meant for files
   * compressed once, and costs many times gzip's CPU per byte.
   */
  private static final int BROTLI_QUALITY = 5;

  private final MalformedBodyIs400 malformedBodies = new MalformedBodyIs400();

  public BodyCompressionHandler() {
    List<String> preferred = List.of("zstd", "br", "gzip");
    GzipCompression gzip = new GzipCompression();
    GzipEncoderConfig gzipEncoding = new GzipEncoderConfig();
    // A servlet's flush() must reach the client, as it does uncompressed: a streamed response keeps
    // streaming.
    gzipEncoding.setSyncFlush(true);
    gzip.setDefaultEncoderConfig(gzipEncoding);
    add(gzip);
    add(
        "br",
        () -> {
          BrotliCompression brotli = new BrotliCompression();
          BrotliEncoderConfig brotliEncoding = new BrotliEncoderConfig();
          brotliEncoding.setCompressionLevel(BROTLI_QUALITY);
          brotli.setDefaultEncoderConfig(brotliEncoding);
          return brotli;
        });
    add("zstd", ZstandardCompression::new);

    CompressionConfig.Builder config =
        CompressionConfig.builder()
            .defaults()
            .compressPreferredEncodings(preferred)
            .decompressIncludeEncoding(INFLATED_ENCODING);
    // As the platform does, every method: the defaults have only GET and POST.
    for (HttpMethod method : HttpMethod.values()) {
      if (method != HttpMethod.HEAD) {
        config.compressIncludeMethod(method.asString());
      }
      config.decompressIncludeMethod(method.asString());
    }
    putConfiguration("/", config.build());
    // A request body Jetty's inflater cannot read is the client's error: 400, not the app's 500.
    super.setHandler(malformedBodies);
  }

  private void add(Compression compression) {
    compression.setMinCompressSize(MIN_COMPRESS_SIZE);
    putCompression(compression);
  }

  private void add(String encoding, Supplier<Compression> compression) {
    try {
      add(compression.get());
    } catch (LinkageError | RuntimeException e) {
      log.warning(
          () -> "responses are not compressed with " + encoding + " on this platform: " + e);
    }
  }

  /**
   * Sets the handler after this one in the request path (behind the inner mapping of malformed
   * bodies to 400).
   */
  @Override
  public void setHandler(Handler handler) {
    malformedBodies.setHandler(handler);
  }

  /** Turns a failed inflation of a request body into a 400 for whoever reads it. */
  private static final class MalformedBodyIs400 extends Handler.Wrapper {
    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
      // Jetty's inflater renamed the header.
      Request read =
          INFLATED_ENCODING.equals(request.getHeaders().get(INFLATED_HEADER))
              ? new InflatedRequest(request, response)
              : request;
      return super.handle(read, response, callback);
    }
  }

  /**
   * An inflated body whose inflation failures read as 400. When its reading fails (malformed, or
   * over a limit behind), the response closes the connection: what is left of the compressed body
   * is not read, as in legacy mode, whose front end never reads it either.
   */
  private static final class InflatedRequest extends Request.Wrapper {
    private final Response response;

    InflatedRequest(Request wrapped, Response response) {
      super(wrapped);
      this.response = response;
    }

    /** Unknown until inflated: the limits after this count the bytes as they are read. */
    @Override
    public long getLength() {
      return -1;
    }

    @Override
    public Content.Chunk read() {
      Content.Chunk chunk = super.read();
      if (chunk != null && Content.Chunk.isFailure(chunk)) {
        closeAfterResponse();
        if (!(chunk.getFailure() instanceof HttpException) && isMalformed(chunk.getFailure())) {
          return Content.Chunk.from(
              new HttpException.RuntimeException(
                  HttpStatus.BAD_REQUEST_400, "Malformed gzip request body", chunk.getFailure()),
              chunk.isLast());
        }
      }
      return chunk;
    }

    @Override
    public void fail(Throwable failure) {
      closeAfterResponse();
      super.fail(failure);
    }

    private void closeAfterResponse() {
      if (!response.isCommitted()) {
        response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
      }
    }

    private static boolean isMalformed(Throwable failure) {
      for (Throwable t = failure; t != null; t = t.getCause()) {
        if (t instanceof ZipException || t instanceof DataFormatException) {
          return true;
        }
      }
      return false;
    }
  }
}
