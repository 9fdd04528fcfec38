package dev.aerun.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.appengine.api.memcache.MemcacheServicePb.MemcacheStatsResponse;
import com.google.appengine.api.memcache.MemcacheServicePb.MergedNamespaceStats;
import dev.aerun.runtime.dev.DeveloperHandler;
import dev.aerun.runtime.dev.DevelopmentHosts;
import dev.aerun.runtime.server.HandlerChain;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The console's handler over a real loopback socket: who it answers, which methods, and the
 * refusals of an action without its page's token or from another origin.
 */
class ConsoleHandlerTest {
  private static final Pattern TOKEN = Pattern.compile("name=\"token\" value=\"([A-Za-z0-9_-]+)\"");
  private final RecordingHost host = new RecordingHost();
  private Server server;
  private ServerConnector connector;

  @BeforeEach
  void start() throws Exception {
    server = new Server();
    connector = new ServerConnector(server);
    connector.setHost("127.0.0.1");
    server.addConnector(connector);
    Handler app =
        new Handler.Abstract() {
          @Override
          public boolean handle(
              org.eclipse.jetty.server.Request request,
              Response response,
              org.eclipse.jetty.util.Callback callback) {
            response.setStatus(404);
            response.write(true, StandardCharsets.UTF_8.encode("the app's own 404"), callback);
            return true;
          }
        };
    // As in the dev server: the development surface's check in front.
    server.setHandler(
        HandlerChain.of(
            new DeveloperHandler(DevelopmentHosts.withNames(List.of("dev.example"))),
            new ConsoleHandler(
                List.of(new MemcacheSection(new Memcache(host))), true, new PageTokens()),
            app));
    server.start();
  }

  @AfterEach
  void stop() throws Exception {
    server.stop();
  }

  private String exchange(String method, String target, String hostHeader, String... more)
      throws Exception {
    StringBuilder request =
        new StringBuilder(method + " " + target + " HTTP/1.1\r\nHost: " + hostHeader + "\r\n");
    String body = "";
    for (String line : more) {
      if (line.startsWith("body:")) {
        body = line.substring(5);
      } else {
        request.append(line).append("\r\n");
      }
    }
    if (!body.isEmpty()) {
      request
          .append("Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ")
          .append(body.length())
          .append("\r\n");
    }
    request.append("Connection: close\r\n\r\n").append(body);
    try (Socket socket = new Socket("127.0.0.1", connector.getLocalPort())) {
      OutputStream out = socket.getOutputStream();
      out.write(request.toString().getBytes(StandardCharsets.UTF_8));
      out.flush();
      InputStream in = socket.getInputStream();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private void stats() {
    host.answers.add(
        MemcacheStatsResponse.newBuilder()
            .setStats(
                MergedNamespaceStats.newBuilder()
                    .setHits(1)
                    .setMisses(2)
                    .setByteHits(3)
                    .setItems(4)
                    .setBytes(5)
                    .setOldestItemAge(6))
            .build()
            .toByteArray());
  }

  private String token() throws Exception {
    stats();
    Matcher token = TOKEN.matcher(exchange("GET", "/_ah/dev/memcache", "127.0.0.1"));
    assertTrue(token.find());
    return token.group(1);
  }

  @Test
  void pages_areForLoopbackHostsOnly() throws Exception {
    for (String name :
        List.of("127.0.0.1", "localhost:8080", "[::1]:8080", "127.1.2.3", "dev.example:8080")) {
      stats();
      String page = exchange("GET", "/_ah/dev/memcache", name);
      assertTrue(page.startsWith("HTTP/1.1 200"), name + ": " + page);
      assertTrue(page.contains("<th>Items</th><td>4</td>"), page);
      assertTrue(page.contains("Content-Security-Policy: default-src 'none'"), page);
      assertTrue(page.contains("X-Frame-Options: DENY"), page);
    }
    for (String name :
        List.of("evil.example", "127.0.0.1.evil.example", "localhost.evil", "0.0.0.0")) {
      String page = exchange("GET", "/_ah/dev/memcache", name);
      assertTrue(page.contains("the app's own 404"), name + ": " + page);
    }
    assertEquals(
        List.of(
            "memcache.Stats",
            "memcache.Stats",
            "memcache.Stats",
            "memcache.Stats",
            "memcache.Stats"),
        host.calls);
  }

  @Test
  void anAction_needsThePagesToken_andThisOrigin() throws Exception {
    String token = token();
    host.calls.clear();
    String target = "/_ah/dev/memcache/flush";
    assertTrue(exchange("POST", target, "127.0.0.1", "body:x=1").startsWith("HTTP/1.1 403"));
    assertTrue(
        exchange("POST", target, "127.0.0.1", "body:token=forged").startsWith("HTTP/1.1 403"));
    assertTrue(
        exchange("POST", target, "127.0.0.1", "Origin: http://evil.example", "body:token=" + token)
            .startsWith("HTTP/1.1 403"));
    assertTrue(
        exchange("POST", target, "127.0.0.1", "Origin: null", "body:token=" + token)
            .startsWith("HTTP/1.1 403"));
    assertTrue(
        exchange("POST", target, "127.0.0.1", "Sec-Fetch-Site: same-site", "body:token=" + token)
            .startsWith("HTTP/1.1 403"));
    assertTrue(exchange("GET", target + "?token=" + token, "127.0.0.1").startsWith("HTTP/1.1 405"));
    assertEquals(List.of(), host.calls, "nothing was flushed");

    String done =
        exchange(
            "POST",
            target,
            "127.0.0.1:8080",
            "Origin: http://127.0.0.1:8080",
            "Sec-Fetch-Site: same-origin",
            "body:token=" + token);
    assertTrue(done.startsWith("HTTP/1.1 303"), done);
    assertTrue(
        done.contains("Location: http://127.0.0.1:8080/_ah/dev/memcache?done=flushed")
            || done.contains("Location: /_ah/dev/memcache?done=flushed"),
        done);
    assertEquals(List.of("memcache.FlushAll"), host.calls);
  }

  @Test
  void unknownPages_andPagesByPost_areRefused() throws Exception {
    assertTrue(exchange("GET", "/_ah/dev/nope", "127.0.0.1").startsWith("HTTP/1.1 404"));
    assertTrue(exchange("GET", "/_ah/dev/memcache/nope", "127.0.0.1").startsWith("HTTP/1.1 404"));
    assertTrue(
        exchange("POST", "/_ah/dev/memcache", "127.0.0.1", "body:token=" + token())
            .startsWith("HTTP/1.1 405"));
    assertFalse(exchange("GET", "/_ah/devx", "127.0.0.1").contains("development server"));
  }
}
