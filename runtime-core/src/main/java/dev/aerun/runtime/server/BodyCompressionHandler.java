package dev.aerun.runtime.server;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Iterator;
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
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.http.PreEncodedHttpField;
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
 *   <li>Responses: zstandard, brotli or gzip, whichever the client's {@code Accept-Encoding} weighs
 *       highest, in that order on a tie ({@link AcceptEncodingChoice}; Jetty's own negotiation
 *       would put its order before the client's weights, so it is shown only the chosen coding, and
 *       the handlers after this one see the client's header again). A body under {@value
 *       #MIN_COMPRESS_SIZE} bytes, an already compressed type (images, audio, video, fonts,
 *       archives), an app's own {@code Content-Encoding} and error statuses are sent as they are.
 *       Every method is compressed but {@code HEAD}, whose headers follow what the body would have
 *       been uncompressed. An {@code ETag} gets the encoding's suffix, which conditional requests
 *       have taken off again before the app compares them. A flush sends what was written so far
 *       (gzip flushes its deflater).
 *   <li>{@code Vary}: when a coding was negotiated, {@code Accept-Encoding} joins whatever {@code
 *       Vary} the response has when it commits, once. The handlers after this one start with no
 *       {@code Vary} of it, so the app's own {@code setHeader("Vary", …)} and {@code addHeader}
 *       neither drop nor repeat it, and legacy mode, whose app answers in another server, ends with
 *       the same header.
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

  private static final HttpField VARY_ACCEPT_ENCODING =
      new PreEncodedHttpField(HttpHeader.VARY, HttpHeader.ACCEPT_ENCODING.asString());

  /** The response codings, ours first. */
  private static final List<String> PREFERRED = List.of("zstd", "br", "gzip");

  private final List<String> offered = new ArrayList<>();
  private final AcceptEncodingChoice choice;
  private final MalformedBodyIs400 malformedBodies = new MalformedBodyIs400();

  public BodyCompressionHandler() {
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
    choice = new AcceptEncodingChoice(PREFERRED.stream().filter(offered::contains).toList());

    CompressionConfig.Builder config =
        CompressionConfig.builder()
            .defaults()
            .compressPreferredEncodings(PREFERRED)
            .decompressIncludeEncoding(INFLATED_ENCODING);
    // As the platform does, every method: the defaults have only GET and POST.
    for (HttpMethod method : HttpMethod.values()) {
      if (method != HttpMethod.HEAD) {
        config.compressIncludeMethod(method.asString());
      }
      config.decompressIncludeMethod(method.asString());
    }
    putConfiguration("/", config.build());
    // Behind Jetty's handler: the client's Accept-Encoding shown again, Vary kept for the commit,
    // and a request body Jetty's inflater cannot read made the client's error (400, not the app's
    // 500).
    ClientAcceptEncoding clientHeader = new ClientAcceptEncoding();
    VaryOnCommit vary = new VaryOnCommit();
    clientHeader.setHandler(vary);
    vary.setHandler(malformedBodies);
    super.setHandler(clientHeader);
  }

  private void add(Compression compression) {
    compression.setMinCompressSize(MIN_COMPRESS_SIZE);
    putCompression(compression);
    offered.add(compression.getEncodingName());
  }

  private void add(String encoding, Supplier<Compression> compression) {
    try {
      add(compression.get());
    } catch (LinkageError | RuntimeException e) {
      log.warning(
          () -> "responses are not compressed with " + encoding + " on this platform: " + e);
    }
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    if (AcceptEncodingChoice.unweighted(request.getHeaders())) {
      // Jetty's pick, ours among the codings named, is the client's.
      return super.handle(request, response, callback);
    }
    return super.handle(
        new ChosenEncodingRequest(request, choice.choose(request.getHeaders())),
        response,
        callback);
  }

  /**
   * Sets the handler after this one in the request path (behind the inner handlers: the client's
   * {@code Accept-Encoding} shown again, {@code Vary}, malformed bodies as 400).
   */
  @Override
  public void setHandler(Handler handler) {
    malformedBodies.setHandler(handler);
  }

  /** The response's {@code Vary}, looked up by index in the fields below its wrappers. */
  private static HttpField varyOf(HttpFields.Mutable headers) {
    return FieldsBelow.of(headers).getField(HttpHeader.VARY);
  }

  /**
   * A request whose {@code Accept-Encoding} fields, as Jetty's negotiation reads them, name only
   * the coding the client's weights chose: the first says it (or {@code identity} when none was
   * acceptable), any other says {@code identity}, so the fields keep their places.
   */
  private static final class ChosenEncodingRequest extends Request.Wrapper {
    private final HttpFields shown;

    ChosenEncodingRequest(Request wrapped, String chosen) {
      super(wrapped);
      HttpFields.Mutable fields = HttpFields.build(wrapped.getHeaders().size());
      boolean first = true;
      for (HttpField field : wrapped.getHeaders()) {
        if (field.getHeader() == HttpHeader.ACCEPT_ENCODING) {
          String value = first && chosen != null ? chosen : HttpHeaderValue.IDENTITY.asString();
          fields.add(new HttpField(HttpHeader.ACCEPT_ENCODING, value));
          first = false;
        } else {
          fields.add(field);
        }
      }
      this.shown = fields.asImmutable();
    }

    @Override
    public HttpFields getHeaders() {
      return shown;
    }

    /** The client's own fields, in order. */
    List<HttpField> clientFields() {
      return getWrapped().getHeaders().getFields(HttpHeader.ACCEPT_ENCODING);
    }
  }

  /**
   * Behind Jetty's negotiation, puts back the {@code Accept-Encoding} fields the client sent in
   * place of the ones {@link ChosenEncodingRequest} showed it. Jetty's request wrappers copy the
   * headers they were given, so the fields are put back by position, and what those wrappers
   * changed ({@code If-None-Match}, an inflated body's {@code Content-Encoding}) stays changed.
   */
  private static final class ClientAcceptEncoding extends Handler.Wrapper {
    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
      ChosenEncodingRequest chosen = Request.as(request, ChosenEncodingRequest.class);
      if (chosen == null) {
        return super.handle(request, response, callback);
      }
      Iterator<HttpField> client = chosen.clientFields().iterator();
      HttpFields.Mutable fields = HttpFields.build(request.getHeaders().size());
      for (HttpField field : request.getHeaders()) {
        fields.add(
            field.getHeader() == HttpHeader.ACCEPT_ENCODING && client.hasNext()
                ? client.next()
                : field);
      }
      HttpFields restored = fields.asImmutable();
      return super.handle(
          new Request.Wrapper(request) {
            @Override
            public HttpFields getHeaders() {
              return restored;
            }
          },
          response,
          callback);
    }
  }

  /**
   * Takes the {@code Vary: Accept-Encoding} Jetty's handler set before anything was answered, and
   * merges {@code Accept-Encoding} into the response's {@code Vary} as the response commits: by its
   * first write, or by the completion of a handler that wrote nothing.
   */
  private static final class VaryOnCommit extends Handler.Wrapper {
    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
      HttpFields.Mutable headers = response.getHeaders();
      if (varyOf(headers) == null) {
        return super.handle(request, response, callback); // nothing negotiated
      }
      headers.remove(HttpHeader.VARY);
      VaryAddedResponse varied = new VaryAddedResponse(request, response, callback);
      if (super.handle(request, varied, varied)) {
        return true;
      }
      headers.ensureField(VARY_ACCEPT_ENCODING);
      return false;
    }
  }

  /** A response that adds {@code Accept-Encoding} to its {@code Vary} before it commits. */
  private static final class VaryAddedResponse extends Response.Wrapper implements Callback {
    private final Callback callback;

    VaryAddedResponse(Request request, Response wrapped, Callback callback) {
      super(request, wrapped);
      this.callback = callback;
    }

    private void addVary() {
      if (isCommitted()) {
        return;
      }
      HttpFields.Mutable headers = getHeaders();
      if (varyOf(headers) == null) {
        // Most answers: no Vary of the app's. Jetty's merge (ensureField) costs a list and a
        // lambda per call.
        headers.add(VARY_ACCEPT_ENCODING);
      } else {
        headers.ensureField(VARY_ACCEPT_ENCODING);
      }
    }

    @Override
    public void write(boolean last, ByteBuffer content, Callback written) {
      addVary();
      super.write(last, content, written);
    }

    @Override
    public void succeeded() {
      addVary();
      callback.succeeded();
    }

    @Override
    public void failed(Throwable failure) {
      callback.failed(failure);
    }

    @Override
    public InvocationType getInvocationType() {
      return callback.getInvocationType();
    }
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
