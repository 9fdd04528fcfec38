package dev.aerun.runtime.statics;

import dev.aerun.runtime.security.AccessCheck;
import dev.aerun.runtime.security.CanonicalPath;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.logging.Logger;
import org.eclipse.jetty.http.CompressedContentFormat;
import org.eclipse.jetty.http.DateGenerator;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.http.MimeTypes;
import org.eclipse.jetty.http.content.CachingHttpContentFactory;
import org.eclipse.jetty.http.content.HttpContent;
import org.eclipse.jetty.http.content.PreCompressedHttpContentFactory;
import org.eclipse.jetty.http.content.ResourceHttpContentFactory;
import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.ResourceService;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.resource.ResourceFactory;

/**
 * Serves the app's static files in front of the webapp, the way the platform's front end does:
 * requests for a static file are answered here and never enter the servlet chain (no filter, no
 * servlet, no session); every other request goes on to the wrapped webapp unchanged.
 *
 * <p>What is static is decided once, when the handler starts (see {@link StaticFileIndex}). The
 * files come from the started webapp's base resource (the exploded app, or where Jetty unpacked the
 * WAR), found as the {@link ContextHandler} among the wrapped handlers, unless an app root was
 * given. Responses carry {@code ETag}, {@code Last-Modified}, {@code Accept-Ranges} and the rule's
 * {@code Cache-Control}/{@code Expires} and extra headers; conditional and range requests and
 * precompressed {@code .gz} variants are handled by Jetty's {@link ResourceService}. Only {@code
 * GET} and {@code HEAD} are allowed on a static file (405 otherwise). The webapp's security
 * constraints hold for its static files as for its servlets ({@link AccessCheck}). Error answers
 * use the app's {@code static-error-handlers} page when it has one.
 *
 * <p>With a cache (production), what was read of a file (its bytes if small enough, its {@code
 * ETag}, its precompressed variant, or that it is missing) is kept in memory within a byte bound,
 * so a static request does not touch the disk again; without one (development) every request reads
 * the file as it is.
 */
public final class StaticFilesHandler extends Handler.Wrapper {
  private static final Logger log = Logger.getLogger(StaticFilesHandler.class.getName());
  private static final List<String> DEFAULT_WELCOME_FILES =
      List.of("index.html", "index.htm", "index.jsp");

  private final StaticFileRules rules;
  private final Path appRoot;
  private final Map<String, String> errorHandlers;
  private final long cacheBytes;
  private final Supplier<AccessCheck> access;

  /** The index and how to serve it, swapped as one so a request sees a consistent pair. */
  private volatile Service service;

  /** Serves {@code files}; the webapp is the next handler. */
  public StaticFilesHandler(StaticFiles files) {
    this.rules = files.rules();
    this.appRoot = files.appRoot();
    this.errorHandlers = files.errorPages();
    this.cacheBytes = files.cacheBytes();
    this.access = files.access();
  }

  public StaticFilesHandler(StaticFiles files, Handler webapp) {
    this(files);
    setHandler(webapp);
  }

  @Override
  protected void doStart() throws Exception {
    // The webapp starts first: only then is a WAR unpacked and its base resource known.
    super.doStart();
    ContextHandler context = getDescendant(ContextHandler.class);
    Path root = appRoot != null ? appRoot : baseDirectory(context);
    String contextPath = context == null ? "/" : context.getContextPath();
    if (root == null) {
      log.warning("The app has no base directory: its static files are served by the app itself");
      return;
    }
    List<String> welcomeFiles = WelcomeFiles.read(root).orElse(DEFAULT_WELCOME_FILES);
    StaticFileIndex built = StaticFileIndex.build(root, rules, contextPath, welcomeFiles);
    ErrorPages errorPages = ErrorPages.load(root, errorHandlers);
    MimeTypes mimeTypes =
        context == null || context.getMimeTypes() == null
            ? MimeTypes.DEFAULTS
            : context.getMimeTypes();
    ByteBufferPool.Sized buffers =
        new ByteBufferPool.Sized(getServer().getByteBufferPool(), false, 32 * 1024);
    AccessCheck check = Objects.requireNonNull(access.get(), "access check");
    service =
        new Service(
            built,
            mimeTypes,
            buffers,
            errorPages,
            cacheBytes,
            check,
            contextPath.equals("/") ? "" : contextPath);
    log.info(
        built.size()
            + " static paths under "
            + built.publicRoot()
            + ", "
            + (cacheBytes > 0
                ? "kept in memory up to " + (cacheBytes >> 20) + " MiB"
                : "read from disk on every request"));
  }

  @Override
  protected void doStop() throws Exception {
    Service stopped = service;
    service = null;
    if (stopped != null && stopped.cache != null) {
      stopped.cache.flushCache(); // gives the cached buffers back to the pool
    }
    super.doStop();
  }

  private static Path baseDirectory(ContextHandler context) {
    if (context == null || context.getBaseResource() == null) {
      return null;
    }
    return context.getBaseResource().getPath();
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    Service resources = service;
    // Every spelling of a file's path finds it, and its constraints (see CanonicalPath).
    String path = CanonicalPath.of(request.getHttpURI().getCanonicalPath());
    StaticFileIndex.Entry entry =
        resources == null || path == null ? null : resources.index.lookup(path);
    if (entry == null) {
      return super.handle(request, response, callback);
    }
    if (refused(resources, request, response, callback, path, entry)) {
      return true;
    }
    String method = request.getMethod();
    if (!HttpMethod.GET.is(method) && !HttpMethod.HEAD.is(method)) {
      response.getHeaders().put(HttpHeader.ALLOW, "GET, HEAD");
      resources.error(request, response, callback, HttpStatus.METHOD_NOT_ALLOWED_405);
      return true;
    }
    HttpContent content = resources.getContent(entry.resourcePath(), request);
    if (content == null) {
      // Deleted since start-up before it was first read: the file is gone for the app too.
      resources.error(request, response, callback, HttpStatus.NOT_FOUND_404);
      return true;
    }
    if (!entry.directory() || path.endsWith("/")) {
      // Not on the redirect from dir to dir/: only content is cached for the rule's time.
      putCachingHeaders(response, entry.rule());
    }
    resources.doGet(request, response, callback, content);
    return true;
  }

  /**
   * Answers {@code request} as the webapp's security would, and returns true, when a constraint of
   * the file's path keeps it from the request (every method, every spelling of the path: {@code
   * path} is the canonical one the file was found by); for a directory, its welcome file's
   * constraint must let it through too.
   */
  private static boolean refused(
      Service resources,
      Request request,
      Response response,
      Callback callback,
      String path,
      StaticFileIndex.Entry entry) {
    AccessCheck.Refusal refusal = resources.access.refusal(request, resources.inContext(path));
    if (refusal == null && entry.directory()) {
      refusal = resources.access.refusal(request, entry.welcomeTarget());
    }
    if (refusal == null) {
      return false;
    }
    if (refusal.location() != null) {
      Response.sendRedirect(
          request, response, callback, refusal.status(), refusal.location(), true);
    } else {
      resources.error(request, response, callback, refusal.status());
    }
    return true;
  }

  /**
   * The rule's expiration, then its own headers, which win over the computed ones. {@code Expires}
   * counts from the response's own {@code Date} (which Jetty stamps when the request arrives), so
   * the two always differ by exactly {@code max-age}, whichever second the clock ticks into
   * meanwhile.
   */
  static void putCachingHeaders(Response response, StaticFileRules.Rule rule) {
    long seconds = rule.expirationSeconds();
    HttpFields.Mutable headers = response.getHeaders();
    long date = headers.getDateField(HttpHeader.DATE);
    long from = date >= 0 ? date : System.currentTimeMillis();
    headers.put(HttpHeader.CACHE_CONTROL, "public, max-age=" + seconds);
    headers.put(HttpHeader.EXPIRES, DateGenerator.formatDate(from + seconds * 1000));
    rule.httpHeaders().forEach(headers::put);
  }

  /** Jetty's resource service over the index, with the app's error pages. */
  private static final class Service extends ResourceService {
    final StaticFileIndex index;
    final CachingHttpContentFactory cache;
    final AccessCheck access;
    private final ErrorPages errorPages;
    private final String contextPrefix;

    Service(
        StaticFileIndex index,
        MimeTypes mimeTypes,
        ByteBufferPool.Sized buffers,
        ErrorPages errorPages,
        long cacheBytes,
        AccessCheck access,
        String contextPrefix) {
      this.index = index;
      this.errorPages = errorPages;
      this.access = access;
      this.contextPrefix = contextPrefix;
      ResourceFactory files = ResourceFactory.root();
      HttpContent.Factory resources =
          new ResourceHttpContentFactory(files.newResource(index.publicRoot()), mimeTypes, buffers);
      // The index holds no links, but a precompressed variant is looked up beside its file: a
      // link (an alias of another path) is never served, as it could lead out of the app.
      HttpContent.Factory factory =
          path -> {
            HttpContent content = resources.getContent(path);
            return content == null || content.getResource().isAlias() ? null : content;
          };
      if (cacheBytes > 0) {
        // Above the link check, so only what may be served is kept (a refusal is kept as missing).
        cache = new CachingHttpContentFactory(factory, buffers);
        cache.setMaxCacheSize(cacheBytes);
        cache.setMaxCachedFileSize((int) Math.min(cacheBytes / 8, 4L << 20));
        factory = cache;
      } else {
        cache = null;
      }
      List<CompressedContentFormat> compressed = List.of(CompressedContentFormat.GZIP);
      setHttpContentFactory(new PreCompressedHttpContentFactory(factory, compressed));
      setPrecompressedFormats(compressed);
      setEtags(true);
      setAcceptRanges(true);
      // Directories are served only through their welcome file; never listed.
      setDirAllowed(false);
      setWelcomeMode(WelcomeMode.SERVE);
      setWelcomeFactory(
          (content, request) -> {
            StaticFileIndex.Entry entry =
                index.lookup(CanonicalPath.of(request.getHttpURI().getCanonicalPath()));
            return entry == null ? null : entry.welcomeTarget();
          });
    }

    /** {@code path} (canonical, with the context path) within the context. */
    String inContext(String path) {
      return contextPrefix.isEmpty() || !path.startsWith(contextPrefix)
          ? path
          : path.length() == contextPrefix.length() ? "/" : path.substring(contextPrefix.length());
    }

    void error(Request request, Response response, Callback callback, int status) {
      writeHttpError(request, response, callback, status);
    }

    @Override
    protected void writeHttpError(
        Request request, Response response, Callback callback, int status) {
      if (!serveErrorPage(response, callback, status)) {
        super.writeHttpError(request, response, callback, status);
      }
    }

    @Override
    protected void writeHttpError(
        Request request, Response response, Callback callback, Throwable cause) {
      if (!serveErrorPage(response, callback, HttpStatus.INTERNAL_SERVER_ERROR_500)) {
        super.writeHttpError(request, response, callback, cause);
      }
    }

    @Override
    protected void writeHttpError(
        Request request,
        Response response,
        Callback callback,
        int status,
        String msg,
        Throwable cause) {
      if (!serveErrorPage(response, callback, status)) {
        super.writeHttpError(request, response, callback, status, msg, cause);
      }
    }

    /** Answers an error status with the app's static error page, if it has one. */
    private boolean serveErrorPage(Response response, Callback callback, int status) {
      if (status < 400) {
        return false;
      }
      ErrorPages.Page page = errorPages.forStatus(status);
      if (page == null || response.isCommitted()) {
        return false;
      }
      response.setStatus(status);
      response.getHeaders().remove(HttpHeader.CACHE_CONTROL);
      response.getHeaders().remove(HttpHeader.EXPIRES);
      response.getHeaders().remove(HttpHeader.ETAG);
      response.getHeaders().remove(HttpHeader.LAST_MODIFIED);
      response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache");
      response.getHeaders().put(HttpHeader.CONTENT_TYPE, page.contentType());
      response.getHeaders().put(HttpHeader.CONTENT_LENGTH, page.body().length);
      response.write(true, ByteBuffer.wrap(page.body()), callback);
      return true;
    }
  }
}
