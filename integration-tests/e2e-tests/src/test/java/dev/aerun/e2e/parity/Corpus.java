package dev.aerun.e2e.parity;

import static dev.aerun.e2e.parity.ParityCase.raw;
import static dev.aerun.e2e.parity.ParityCase.request;

import dev.aerun.e2e.parity.ParityCase.Variant;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The requests every configuration must answer identically (the request contract,
 * docs/REQUESTS.md). Each case is sent to the reference runtime and to the runtime under test;
 * {@code /request-info} answers carry what the app saw, every other answer is what the client got.
 *
 * <p>Sizes: bodies of 32 MiB exactly are accepted, one byte more is refused. The 32 MiB cases are
 * few on purpose: each costs a transfer per configuration.
 */
final class Corpus {
  static final long KIB = 1024;
  static final long MIB = 1024 * KIB;
  static final long LIMIT = 32 * MIB;

  /**
   * Every X-AppEngine-* header of the request contract and the other platform headers, with plain
   * ones.
   */
  static final String[] PLATFORM_HEADERS = {
    "X-AppEngine-User-IP", "203.0.113.7",
    "X-AppEngine-Https", "on",
    "X-AppEngine-Timeout-Ms", "30000",
    "X-AppEngine-Request-Log-Id", "log-123",
    "X-AppEngine-Default-Version-Hostname", "demo.example.com",
    "X-AppEngine-User-Email", "admin@example.com",
    "X-AppEngine-User-Id", "42",
    "X-AppEngine-User-Nickname", "admin",
    "X-AppEngine-User-Is-Admin", "1",
    "X-AppEngine-Auth-Domain", "example.com",
    "X-AppEngine-User-Organization", "example.org",
    "X-AppEngine-QueueName", "__cron",
    "X-AppEngine-TaskName", "task-7",
    "X-AppEngine-TaskRetryCount", "3",
    "X-AppEngine-Cron", "true",
    "X-AppEngine-Api-Ticket", "secret-ticket",
    "X-AppEngine-Trusted-IP-Request", "1",
    "X-AppEngine-Gaia-Id", "1234",
    "X-AppEngine-LOAS-Peer-Username", "frontend",
    "X-AppEngine-AppServer-Name", "appserver-1",
    "X-AppEngine-Country", "US",
    "X-AppEngine-Region", "ca",
    "X-AppEngine-City", "mountain view",
    "X-AppEngine-CityLatLong", "37.386051,-122.083851",
    "X-Google-Internal-Skip", "internal",
    "X-Forwarded-For", "198.51.100.1",
    "X-Forwarded-Proto", "https",
    "Forwarded", "for=198.51.100.1;proto=https",
    "X-Cloud-Trace-Context", "105445aa7843bc8bf206b12000100000/1;o=1",
    "traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
    "X-Custom", "kept",
  };

  private Corpus() {}

  /** The cases for one runtime variant, in a stable order. */
  static List<ParityCase> cases(Variant variant) {
    return all().stream().filter(c -> c.variants().contains(variant)).toList();
  }

  static List<ParityCase> all() {
    List<ParityCase> cases = new ArrayList<>();
    methods(cases);
    targets(cases);
    headers(cases);
    bodies(cases);
    content(cases);
    platform(cases);
    malformed(cases);
    appView(cases);
    return cases;
  }

  private static void methods(List<ParityCase> cases) {
    cases.add(request("get-hello", "GET", "/hello").build());
    cases.add(request("get-request-info", "GET", "/request-info").allVariants().build());
    cases.add(request("head-hello", "HEAD", "/hello").build());
    cases.add(request("head-request-info", "HEAD", "/request-info").build());
    cases.add(
        request("post-form", "POST", "/request-info")
            .headers("Content-Type", "application/x-www-form-urlencoded")
            .body(Body.text("a=1&b=%C3%A9+x&c="))
            .build());
    cases.add(
        request("put-1k", "PUT", "/request-info")
            .headers("Content-Type", "application/octet-stream")
            .body(Body.fixed(KIB))
            .build());
    cases.add(request("delete-request-info", "DELETE", "/request-info").build());
    cases.add(request("options-request-info", "OPTIONS", "/request-info").build());
    cases.add(request("options-hello", "OPTIONS", "/hello").build());
    cases.add(
        request("patch-request-info", "PATCH", "/request-info")
            .headers("Content-Type", "application/json")
            .body(Body.text("{\"patch\":true}"))
            .build());
    cases.add(request("delete-hello-not-allowed", "DELETE", "/hello").expect(405).build());
    cases.add(
        request("post-hello-not-allowed", "POST", "/hello")
            .body(Body.fixed(0))
            .expect(405)
            .build());
    cases.add(
        // EE8 answers it (200, Allow), EE10 does not (404).
        raw("options-asterisk", "OPTIONS * HTTP/1.1\r\nHost: {runtime}\r\n\r\n")
            .expect(200, 404)
            .build());
    cases.add(raw("http-1.0-no-host", "GET /request-info HTTP/1.0\r\n\r\n").build());
  }

  private static void targets(List<ParityCase> cases) {
    cases.add(
        request(
                "query-encoded",
                "GET",
                "/request-info?a=1&b=%20x&c=%C3%A9%2F%3F%26%3D&d=+plus+&e=&flag&a=2&%E2%9C%93=%25")
            .build());
    cases.add(request("jsp-query-escaped", "GET", "/jstl.jsp?name=%3Cb%3E%26%C3%A9").build());
    cases.add(
        request("path-encoded-404", "GET", "/hello%20there/%C3%A9?x=%22").expect(404).build());
    cases.add(request("path-dot-segments", "GET", "/css/../hello").build());
    // EE8 takes what Jetty 9.4 took (/request-info/x: no such servlet); EE10 and EE11 refuse it.
    cases.add(request("path-encoded-slash", "GET", "/request-info%2Fx").expect(400, 404).build());
    cases.add(
        request("absolute-form-target", "GET", "http://example.com:8080/request-info?q=1")
            .host("example.com:8080")
            .build());
    cases.add(request("host-without-port", "GET", "/request-info").host("parity.example").build());
    cases.add(request("host-uppercase", "GET", "/request-info").host("PARITY.Example:81").build());
  }

  private static void headers(List<ParityCase> cases) {
    cases.add(
        request("headers-repeated", "GET", "/request-info")
            .headers(
                "X-Multi", "one",
                "X-Multi", "two",
                "x-multi", "three",
                "Accept", "text/plain",
                "Accept", "application/json",
                "Accept-Language", "en;q=0.8, fr")
            .build());
    cases.add(
        request("headers-mixed-case", "GET", "/request-info")
            .headers(
                "x-lower-case", "a",
                "X-UPPER-CASE", "B",
                "X-MiXeD-CaSe", "c",
                "user-agent", "parity/1",
                "CONTENT-TYPE", "text/plain; charset=UTF-8")
            .build());
    cases.add(
        request("headers-odd-values", "GET", "/request-info")
            .headers(
                "X-Empty", "",
                "X-Padded", "   padded value   ",
                "X-Comma", "a, b, c",
                "X-Quoted", "\"quoted, value\"",
                "X-Latin1", "caf\u00e9",
                "X-Tab", "a\tb",
                "X-Long", "x".repeat(8000))
            .build());
    String[] many = new String[200];
    for (int i = 0; i < 100; i++) {
      many[2 * i] = "X-Header-" + i;
      many[2 * i + 1] = "value-" + i;
    }
    cases.add(request("headers-100", "GET", "/request-info").headers(many).build());
    cases.add(
        request("cookies", "GET", "/cookies")
            .headers("Cookie", "a=1; b=\"quoted value\"; c=%20x", "Cookie", "second=2")
            .build());
    cases.add(
        request("cookies-as-seen", "GET", "/request-info")
            .headers("Cookie", "a=1; b=\"quoted value\"; c=%20x", "Cookie", "second=2")
            .build());
  }

  private static void bodies(List<ParityCase> cases) {
    // Trailers after a chunked body: plain ones reach the app in both modes; platform ones follow
    // the header trust rule (removed from an untrusted client, private ones hidden when trusted).
    cases.add(
        raw(
                "body-chunked-trailers",
                "POST /request-info HTTP/1.1\r\nHost: {runtime}\r\n"
                    + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                    + "5\r\nhello\r\n0\r\n"
                    + "X-Checksum: abc123\r\n"
                    + "X-AppEngine-Cron: true\r\n"
                    + "X-AppEngine-User-Email: evil@example.com\r\n"
                    + "X-Forwarded-For: 198.51.100.1\r\n"
                    + "Forwarded: for=198.51.100.1\r\n"
                    + "X-Google-Internal-Skip: 1\r\n\r\n")
            .allVariants()
            .build());
    cases.add(request("body-fixed-0", "POST", "/request-info").body(Body.fixed(0)).build());
    cases.add(request("body-chunked-0", "POST", "/request-info").body(Body.chunked(0)).build());
    cases.add(request("body-fixed-1", "POST", "/request-info").body(Body.fixed(1)).build());
    cases.add(request("body-chunked-1", "POST", "/request-info").body(Body.chunked(1)).build());
    cases.add(
        request("body-fixed-64k", "POST", "/request-info").body(Body.fixed(64 * KIB)).build());
    cases.add(
        request("body-chunked-1m", "POST", "/request-info").body(Body.chunked(MIB + 3)).build());
    cases.add(
        request("echo-fixed-5m", "POST", "/echo")
            .headers("Content-Type", "application/octet-stream")
            .body(Body.fixed(5 * MIB + 17))
            .build());
    cases.add(
        request("echo-chunked-2m", "PUT", "/echo")
            .headers("Content-Type", "application/x-parity")
            .body(Body.chunked(2 * MIB))
            .build());
    cases.add(
        request("echo-text", "POST", "/echo")
            .headers("Content-Type", "text/plain;charset=utf-8")
            .body(Body.chunkedText("h\u00e9llo, parity\n"))
            .build());
    cases.add(
        request("expect-continue", "POST", "/request-info")
            .headers("Expect", "100-continue")
            .body(Body.fixed(1000))
            .build());
    cases.add(request("body-fixed-32m", "POST", "/request-info").body(Body.fixed(LIMIT)).build());
    cases.add(
        request("body-chunked-32m", "POST", "/request-info").body(Body.chunked(LIMIT)).build());
    cases.add(
        request("over-limit-content-length", "POST", "/request-info")
            .body(Body.declaredOnly(LIMIT + 1))
            .expect(413)
            .build());
    cases.add(
        request("over-limit-chunked", "POST", "/request-info")
            .body(Body.chunked(33 * MIB))
            .expect(413)
            .build());
    cases.add(
        request("over-limit-expect-continue", "POST", "/request-info")
            .headers("Expect", "100-continue")
            .body(Body.declaredOnly(33 * MIB))
            .expect(413)
            .build());
    cases.add(
        request("gzip-request-body", "POST", "/request-info")
            .headers("Content-Type", "text/plain", "Content-Encoding", "gzip")
            .body(Body.gzip("compressed by the client\n".repeat(200)))
            .build());
    // 33 MiB of zeros, 33 KiB gzipped: the limit counts what the app would read.
    cases.add(
        request("gzip-request-over-limit-inflated", "POST", "/request-info")
            .headers("Content-Type", "application/octet-stream", "Content-Encoding", "gzip")
            .body(Body.gzip(new byte[(int) (LIMIT + MIB)]))
            .expect(413)
            .build());
    cases.add(
        request("gzip-request-malformed", "POST", "/echo")
            .headers("Content-Type", "text/plain", "Content-Encoding", "gzip")
            .body(Body.text("this is not gzip"))
            .expect(400)
            .build());
    cases.add(
        request("gzip-request-chunked", "PUT", "/echo")
            .headers("Content-Type", "text/plain", "Content-Encoding", "gzip")
            .body(Body.gzipChunked("compressed and sent chunked\n".repeat(500)))
            .build());
    cases.add(
        request("br-request-body-as-sent", "POST", "/request-info")
            .headers("Content-Type", "text/plain", "Content-Encoding", "br")
            .body(Body.text("not inflated: only gzip is"))
            .build());
    String boundary = "----aerun-parity";
    Body multipart =
        Body.bytes(
            multipart(
                boundary,
                part("title", null, "hello".getBytes(StandardCharsets.UTF_8)),
                part("file", "a.bin", pattern(100_000))));
    cases.add(
        request("multipart-upload", "POST", "/upload")
            .headers("Content-Type", "multipart/form-data; boundary=" + boundary)
            .body(multipart)
            .build());
    cases.add(
        request("multipart-as-seen", "POST", "/request-info")
            .headers("Content-Type", "multipart/form-data; boundary=" + boundary)
            .body(multipart)
            .build());
    cases.add(request("async-io-chunked-1m", "POST", "/async-io").body(Body.chunked(MIB)).build());
    cases.add(request("async-io-empty", "POST", "/async-io").body(Body.fixed(0)).build());
  }

  private static void content(List<ParityCase> cases) {
    cases.add(request("gzip-response", "GET", "/gzip").headers("Accept-Encoding", "gzip").build());
    cases.add(request("gzip-response-unasked", "GET", "/gzip?lines=2000").build());
    // Compressed by the runtime: each coding, a flushed (streamed) answer, one too small to be
    // worth it, and a 32 MiB one (the response limit counts what the app writes, not the wire).
    cases.add(
        request("compressed-gzip", "GET", "/generate?bytes=100000")
            .headers("Accept-Encoding", "gzip")
            .build());
    cases.add(
        request("compressed-br", "GET", "/generate?bytes=100000")
            .headers("Accept-Encoding", "br")
            .build());
    cases.add(
        request("compressed-browser", "GET", "/generate?bytes=100000")
            .headers("Accept-Encoding", "gzip, deflate, br, zstd")
            .build());
    cases.add(
        request("compressed-flushed", "GET", "/generate?bytes=200000&flush=true")
            .headers("Accept-Encoding", "gzip")
            .build());
    cases.add(
        request("compressed-length-declared", "GET", "/generate?bytes=100000&length=true")
            .headers("Accept-Encoding", "gzip")
            .build());
    cases.add(
        request("compressed-too-small", "GET", "/generate?bytes=255")
            .headers("Accept-Encoding", "gzip")
            .build());
    cases.add(
        request("compressed-32m", "GET", "/generate?bytes=" + LIMIT)
            .headers("Accept-Encoding", "gzip")
            .build());
    // The client's weights choose the coding, ours only break a tie; a client that refuses
    // identity and accepts nothing offered still gets an answer; the app sees the client's header.
    cases.add(
        request("compressed-client-weights", "GET", "/generate?bytes=100000")
            .headers("Accept-Encoding", "gzip;q=1.0, br;q=0.5")
            .build());
    cases.add(
        request("compressed-identity-refused", "GET", "/generate?bytes=100000")
            .headers("Accept-Encoding", "compress, identity;q=0")
            .build());
    cases.add(
        request("compressed-accept-encoding-as-seen", "GET", "/request-info")
            .headers("Accept-Encoding", "br;q=0.1, gzip;q=0.9")
            .build());
    // The app's own Vary, set or added, keeps its values and gains Accept-Encoding once.
    cases.add(
        request("vary-app-set", "GET", "/generate?bytes=1000&vary=Cookie")
            .headers("Accept-Encoding", "gzip")
            .build());
    cases.add(
        request("vary-app-added", "GET", "/generate?bytes=1000&vary=Cookie&vary=Origin")
            .headers("Accept-Encoding", "gzip")
            .build());
    cases.add(
        request(
                "vary-app-names-accept-encoding",
                "GET",
                "/generate?bytes=1000&vary=Accept-Encoding")
            .headers("Accept-Encoding", "gzip")
            .build());
    cases.add(request("vary-app-unasked", "GET", "/generate?bytes=1000&vary=Cookie").build());
    cases.add(
        request("compressed-head", "HEAD", "/css/site.css")
            .headers("Accept-Encoding", "gzip")
            .build());
    cases.add(request("redirect-relative", "GET", "/redirect?to=target").expect(302).build());
    cases.add(request("redirect-root-relative", "GET", "/redirect?to=/hello").expect(302).build());
    cases.add(
        request("redirect-absolute", "GET", "/redirect?to=https://example.com/elsewhere%3Fq")
            .expect(302)
            .build());
    cases.add(
        request("redirect-app-301", "GET", "/redirect?status=301&to=/hello").expect(301).build());
    cases.add(
        request("redirect-post", "POST", "/redirect?to=done")
            .body(Body.fixed(10))
            .expect(302)
            .build());
    cases.add(
        request("redirect-other-host", "GET", "/redirect?to=target")
            .host("example.com")
            .expect(302)
            .build());
    cases.add(request("directory-redirect", "GET", "/css").expect(302).build());
    // Directories are never listed (the runtime turns the default servlet's listing off).
    cases.add(request("directory-listing", "GET", "/css/").expect(403, 404).build());
    cases.add(request("welcome-file", "GET", "/").build());
    cases.add(request("static-file", "GET", "/css/site.css").build());
    cases.add(request("static-head", "HEAD", "/css/site.css").build());
    cases.add(
        request("static-accept-gzip", "GET", "/index.html")
            .headers("Accept-Encoding", "gzip, deflate, br")
            .build());
    cases.add(
        request("static-range", "GET", "/css/site.css")
            .headers("Range", "bytes=0-9")
            .expect(206)
            .build());
    cases.add(
        request("static-range-unsatisfiable", "GET", "/css/site.css")
            .headers("Range", "bytes=99999-100000")
            .expect(416)
            .build());
    cases.add(
        request("static-not-modified", "GET", "/css/site.css")
            .headers("If-Modified-Since", "Fri, 01 Jan 2100 00:00:00 GMT")
            .expect(304)
            .build());
    cases.add(
        request("static-if-none-match", "GET", "/css/site.css")
            .headers("If-None-Match", "*")
            .build());
    cases.add(request("error-page-404", "GET", "/no/such/page").expect(404).build());
    cases.add(request("error-page-exception", "GET", "/fail").expect(500).build());
    cases.add(request("send-error-418", "GET", "/status?code=418").expect(418).build());
    cases.add(
        request("send-error-message", "GET", "/status?code=503&message=down%20for%20a%20while")
            .expect(503)
            .build());
    cases.add(request("app-status-201", "GET", "/status?code=201&body=true").expect(201).build());
    // Outside 100-599: a three-digit status goes out as set in both modes (legacy mode made it
    // 500), anything else is 500 in both.
    cases.add(request("app-status-999", "GET", "/status?code=999&body=true").expect(999).build());
    cases.add(request("app-status-600", "GET", "/status?code=600&body=true").expect(600).build());
    cases.add(request("app-status-42", "GET", "/status?code=42&body=true").expect(500).build());
    // The app's own Transfer-Encoding is dropped in both modes: HttpConnector mode sent it beside
    // the Content-Length, a response no client can frame.
    cases.add(
        request("app-transfer-encoding-gzip", "GET", "/status?code=200&body=true&te=gzip").build());
    cases.add(
        request("app-transfer-encoding-chunked", "GET", "/status?code=200&body=true&te=chunked")
            .build());
    cases.add(request("web-inf-hidden", "GET", "/WEB-INF/web.xml").expect(404).build());
    cases.add(request("meta-inf-hidden", "GET", "/META-INF/MANIFEST.MF").expect(404).build());
    cases.add(request("async", "GET", "/async?quiet=true").build());
    cases.add(request("jsp", "GET", "/jstl.jsp?name=World").build());
    cases.add(
        request("jsp-post-form", "POST", "/jstl.jsp")
            .headers("Content-Type", "application/x-www-form-urlencoded")
            .body(Body.text("name=posted"))
            .build());
    cases.add(request("declared-servlet", "GET", "/declared").build());
    cases.add(request("fragment-servlet", "GET", "/fragment").build());
    cases.add(request("generate-100k", "GET", "/generate?bytes=100000").build());
    cases.add(request("generate-1m-length", "GET", "/generate?bytes=1048576&length=true").build());
    cases.add(request("generate-flushed", "GET", "/generate?bytes=200000&flush=true").build());
    cases.add(request("generate-32m", "GET", "/generate?bytes=" + LIMIT).build());
    cases.add(
        request("generate-over-limit-declared", "GET", "/generate?length=true&bytes=" + (LIMIT + 1))
            .expect(500)
            .build());
  }

  /**
   * Platform headers: sent to every variant, as untrusted client, front end and with allheaders.
   */
  /**
   * What an app moving from Google's runtime sees: a form over Jetty's default size, the signed-in
   * user without a constraint, a welcome file that names a servlet, a push task, a cron job and the
   * platform's own request on a {@code CONFIDENTIAL} path, and the paths EE8 takes (Jetty 9.4's).
   */
  private static void appView(List<ParityCase> cases) {
    StringBuilder form = new StringBuilder("a=");
    form.append("x".repeat(300 * 1024)).append("&b=%C3%A9");
    cases.add(
        request("form-300k", "POST", "/form?q=1")
            .headers("Content-Type", "application/x-www-form-urlencoded")
            .body(Body.text(form.toString()))
            .allVariants()
            .build());
    cases.add(
        request("user-principal-unprotected", "GET", "/request-info")
            .headers("X-AppEngine-User-Email", "ann@example.com", "X-AppEngine-User-Is-Admin", "1")
            .allVariants()
            .build());
    cases.add(request("welcome-servlet", "GET", "/welcome/").allVariants().build());
    for (String[] caller :
        List.of(
            new String[] {"X-AppEngine-QueueName", "default", "X-AppEngine-TaskName", "t1"},
            new String[] {"X-AppEngine-Cron", "true", "X-AppEngine-QueueName", "__cron"},
            new String[] {"X-Google-Internal-SkipAdminCheck", "true"})) {
      String name = "confidential-" + caller[0].toLowerCase(java.util.Locale.ROOT);
      cases.add(
          request(name + "-trusted", "POST", "/confidential/run")
              .headers(caller)
              .body(Body.text("payload"))
              .variants(Variant.TRUSTED, Variant.ALL_HEADERS)
              .build());
      // No body: the redirect is answered before a body would be read, and whether the connection
      // then closes depends on whether the body's bytes had arrived yet, in either mode.
      cases.add(
          request(name + "-untrusted", "POST", "/confidential/run")
              .headers(caller)
              .expect(302)
              .build());
    }
    // EE8: 200 (Jetty 9.4's parsing); EE10 and EE11: 400.
    String[][] paths = {
      {"encoded-slash", "/confidential/a%2Fb"},
      {"empty-segments", "/confidential//x//y"},
      {"encoded-percent", "/confidential/100%25"}
    };
    for (String[] path : paths) {
      cases.add(
          request("ee8-path-" + path[0], "GET", path[1])
              .headers("X-AppEngine-QueueName", "default")
              .variants(Variant.TRUSTED)
              .expect(200, 400)
              .build());
    }
    cases.add(request("ee8-path-constraint", "GET", "//confidential//x").expect(302, 400).build());
    forwarding(cases);
  }

  /**
   * Behind a TLS-terminating front end: its {@code X-Forwarded-*} (or {@code Forwarded}) give the
   * scheme and client address the app sees, from a peer trusted for them; a client's {@code
   * X-AppEngine-*} through a forwarding-only front end stays ignored and hidden.
   */
  private static void forwarding(List<ParityCase> cases) {
    String[] frontEnd = {
      "X-Forwarded-For", "192.0.2.99, 198.51.100.7:4711",
      "X-Forwarded-Proto", "https",
      "X-Forwarded-Host", "shop.example.com",
      "X-AppEngine-User-Email", "evil@example.com",
      "X-AppEngine-QueueName", "default",
      "X-AppEngine-Country", "ZZ"
    };
    cases.add(
        request("forwarded-confidential", "GET", "/confidential/page?q=1")
            .headers(frontEnd)
            .variants(Variant.FORWARDING, Variant.TRUSTED, Variant.ALL_HEADERS)
            .build());
    cases.add(
        request("forwarded-confidential-untrusted", "GET", "/confidential/page?q=1")
            .headers(frontEnd)
            .expect(302)
            .build());
    cases.add(
        request("forwarded-rfc7239", "GET", "/request-info")
            .headers("Forwarded", "for=\"[2001:db8::7]:4711\";proto=https, for=127.0.0.1")
            .allVariants()
            .build());
    cases.add(
        request("forwarded-redirect", "GET", "/redirect?to=target")
            .headers("X-Forwarded-Proto", "https")
            .allVariants()
            .expect(302)
            .build());
    cases.add(
        request("forwarded-malformed", "GET", "/request-info")
            .headers(
                "X-Forwarded-For", "unknown, [2001:db8::1",
                "X-Forwarded-Proto", "gopher",
                "Forwarded", "for=\"unclosed")
            .allVariants()
            .build());
  }

  private static void platform(List<ParityCase> cases) {
    cases.add(
        request("platform-all", "GET", "/request-info?x=1")
            .headers(PLATFORM_HEADERS)
            .allVariants()
            .build());
    cases.add(
        request("platform-all-post-body", "POST", "/request-info")
            .headers(PLATFORM_HEADERS)
            .body(Body.fixed(10_000))
            .allVariants()
            .build());
    cases.add(
        request("platform-https", "GET", "/request-info")
            .headers("X-AppEngine-Https", "on")
            .allVariants()
            .build());
    cases.add(
        request("platform-user-ip", "GET", "/request-info")
            .headers("X-AppEngine-User-IP", "203.0.113.9")
            .allVariants()
            .build());
    cases.add(
        request("platform-user-ip-v6", "GET", "/request-info")
            .headers("X-AppEngine-User-IP", "2001:db8::1")
            .allVariants()
            .build());
    cases.add(
        request("platform-mixed-case", "GET", "/request-info")
            .headers(
                "x-appengine-user-ip", "203.0.113.10",
                "X-APPENGINE-HTTPS", "ON",
                "x-AppEngine-cron", "TRUE",
                "x-appengine-user-email", "someone@example.com")
            .allVariants()
            .build());
    cases.add(
        request("platform-repeated", "GET", "/request-info")
            .headers(
                "X-AppEngine-User-IP", "203.0.113.11",
                "X-AppEngine-User-IP", "203.0.113.12",
                "X-AppEngine-QueueName", "first",
                "X-AppEngine-QueueName", "second")
            .allVariants()
            .build());
    cases.add(
        request("platform-invalid-values", "GET", "/request-info")
            .headers(
                "X-AppEngine-User-IP", "not-an-ip",
                "X-AppEngine-Https", "yes",
                "X-AppEngine-Timeout-Ms", "soon",
                "X-AppEngine-TaskRetryCount", "-3",
                "X-AppEngine-User-Is-Admin", "maybe",
                "X-Cloud-Trace-Context", "not-a-trace")
            .allVariants()
            .build());
    cases.add(
        request("platform-user-without-email", "GET", "/request-info")
            .headers("X-AppEngine-User-Id", "42", "X-AppEngine-User-Nickname", "nobody")
            .allVariants()
            .build());
    cases.add(
        request("platform-trace-context", "GET", "/request-info")
            .headers("X-Cloud-Trace-Context", "105445aa7843bc8bf206b12000100000;o=0")
            .allVariants()
            .build());
    cases.add(
        request("platform-traceparent", "GET", "/request-info")
            .headers("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00")
            .allVariants()
            .build());
    cases.add(
        request("platform-redirect", "GET", "/redirect?to=target")
            .headers("X-AppEngine-Https", "on", "X-AppEngine-User-IP", "203.0.113.7")
            .allVariants()
            .expect(302)
            .build());
    cases.add(
        request("platform-cookies", "GET", "/cookies")
            .headers("X-AppEngine-Https", "on", "Cookie", "a=1")
            .allVariants()
            .build());
    cases.add(
        request("platform-error-page", "GET", "/no/such/page")
            .headers(PLATFORM_HEADERS)
            .allVariants()
            .expect(404)
            .build());
    cases.add(
        request("platform-jsp", "GET", "/jstl.jsp?name=x")
            .headers(PLATFORM_HEADERS)
            .allVariants()
            .build());
    // The request deadline: from the front end, a request still running at its deadline is
    // answered 504 there and then, in both modes; from anyone else the header means nothing.
    cases.add(
        request("platform-deadline-exceeded", "GET", "/sleep?ms=1500")
            .headers("X-AppEngine-Timeout-Ms", "300")
            .variants(Variant.TRUSTED, Variant.ALL_HEADERS)
            .expect(504)
            .build());
    cases.add(
        request("platform-deadline-untrusted", "GET", "/sleep?ms=500")
            .headers("X-AppEngine-Timeout-Ms", "100")
            .build());
    cases.add(
        request("platform-deadline-passed-on-arrival", "GET", "/sleep?ms=10")
            .headers("X-AppEngine-Timeout-Ms", "0")
            .variants(Variant.TRUSTED, Variant.ALL_HEADERS)
            .expect(504)
            .build());
  }

  private static void malformed(List<ParityCase> cases) {
    String host = "Host: {runtime}\r\n";
    cases.add(raw("malformed-garbage", "GARBAGE\r\n\r\n").expect(400).build());
    cases.add(
        raw("malformed-header-without-colon", "GET /hello HTTP/1.1\r\n" + host + "No colon\r\n\r\n")
            .expect(400)
            .build());
    cases.add(
        raw("malformed-space-before-colon", "GET /hello HTTP/1.1\r\n" + host + "X-Bad : v\r\n\r\n")
            .expect(400)
            .build());
    cases.add(
        raw("malformed-folded-header", "GET /hello HTTP/1.1\r\n" + host + "X-F: a\r\n b\r\n\r\n")
            .expect(400)
            .build());
    cases.add(
        raw("malformed-version", "GET /hello HTTP/7.0\r\n" + host + "\r\n").expect(505).build());
    cases.add(raw("malformed-no-host", "GET /hello HTTP/1.1\r\n\r\n").expect(400).build());
    cases.add(
        raw("malformed-two-hosts", "GET /hello HTTP/1.1\r\n" + host + "Host: other\r\n\r\n")
            .expect(400)
            .build());
    cases.add(
        raw(
                "malformed-conflicting-lengths",
                "POST /request-info HTTP/1.1\r\n"
                    + host
                    + "Content-Length: 5\r\nContent-Length: 6\r\n\r\nabcdef")
            .expect(400)
            .build());
    cases.add(
        raw(
                "malformed-length-and-chunked",
                "POST /request-info HTTP/1.1\r\n"
                    + host
                    + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nabcde\r\n0\r\n\r\n")
            .expect(400)
            .build());
    cases.add(
        raw(
                "malformed-length-not-a-number",
                "POST /request-info HTTP/1.1\r\n" + host + "Content-Length: abc\r\n\r\n")
            .expect(400)
            .build());
    cases.add(
        raw(
                "malformed-chunk-size",
                "POST /request-info HTTP/1.1\r\n"
                    + host
                    + "Transfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n")
            .expect(400)
            .build());
    cases.add(
        raw(
                "malformed-transfer-encoding",
                "POST /request-info HTTP/1.1\r\n" + host + "Transfer-Encoding: gzip\r\n\r\nabc")
            .expect(400)
            .build());
    cases.add(
        raw("malformed-percent-path", "GET /hello%zz HTTP/1.1\r\n" + host + "\r\n")
            .expect(400)
            .build());
    cases.add(
        raw("malformed-method", "G(T /hello HTTP/1.1\r\n" + host + "\r\n").expect(400).build());
    cases.add(
        raw("malformed-control-char", "GET /hello HTTP/1.1\r\n" + host + "X-C: a\u0001b\r\n\r\n")
            .expect(400)
            .build());
    cases.add(raw("bare-lf-line-ends", "GET /request-info HTTP/1.1\nHost: {runtime}\n\n").build());
    cases.add(
        request("headers-too-large", "GET", "/hello")
            .headers("X-Big", "a".repeat(80 * 1024))
            .expect(431)
            .build());
    cases.add(
        request("target-too-long", "GET", "/hello?q=" + "b".repeat(70 * 1024)).expect(414).build());
  }

  private static byte[] part(String name, String fileName, byte[] content) {
    String head =
        "Content-Disposition: form-data; name=\""
            + name
            + "\""
            + (fileName == null
                ? ""
                : "; filename=\"" + fileName + "\"\r\nContent-Type: application/octet-stream")
            + "\r\n\r\n";
    byte[] headBytes = head.getBytes(StandardCharsets.UTF_8);
    byte[] all = Arrays.copyOf(headBytes, headBytes.length + content.length);
    System.arraycopy(content, 0, all, headBytes.length, content.length);
    return all;
  }

  private static byte[] multipart(String boundary, byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(("--" + boundary + "\r\n").getBytes(StandardCharsets.US_ASCII));
      out.writeBytes(part);
      out.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
    }
    out.writeBytes(("--" + boundary + "--\r\n").getBytes(StandardCharsets.US_ASCII));
    return out.toByteArray();
  }

  /** Bytes of every value, in a fixed order. */
  private static byte[] pattern(int length) {
    byte[] bytes = new byte[length];
    for (int i = 0; i < length; i++) {
      bytes[i] = (byte) (i * 31 + (i >> 8));
    }
    return bytes;
  }
}
