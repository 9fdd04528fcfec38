package dev.aerun.e2e;

import static dev.aerun.e2e.BundledServices.call;
import static dev.aerun.e2e.BundledServices.seenBlocking;
import static dev.aerun.e2e.BundledServices.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.testing.RawResponse;
import dev.aerun.testing.RuntimeProcess;
import dev.aerun.testing.Runtimes;
import dev.aerun.testing.TempDirs;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The development console under {@code /_ah/dev} through real HTTP, against the real local API host
 * (Google's local services) of a dev server running the bundled-services sample app: each page
 * lists what the app stored, each action has its effect for the app, and what must be refused is.
 * One runtime for every case; each case uses data of its own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DevConsoleTest {
  private static final Pattern TOKEN = Pattern.compile("name=\"token\" value=\"([A-Za-z0-9_-]+)\"");
  @RegisterExtension final Runtimes runtimes = new Runtimes();
  private Path data;
  private RuntimeProcess runtime;

  @BeforeAll
  void start() throws Exception {
    data = TempDirs.deletedAtExit("aerun-console-data-");
    runtime =
        runtimes.start(
            inMode(RuntimeProcess.launch(RuntimeProcess.app("sample-apis-ee10.war")))
                .args("--development", "--log-format", "text", "--api-data", data.toString()));
    runtime.port();
  }

  /** The app's serving mode: its descriptor's (HttpConnector) here. */
  RuntimeProcess.Launch inMode(RuntimeProcess.Launch launch) {
    return launch;
  }

  /** How the status page names the mode. */
  String modeShown() {
    return "Mode: HttpConnector";
  }

  private HttpResponse<String> get(String path) throws Exception {
    HttpResponse<String> page = Http.get(runtime.uri(path));
    assertEquals(200, page.statusCode(), page.body());
    return page;
  }

  private static String token(String page) {
    Matcher token = TOKEN.matcher(page);
    assertTrue(token.find(), "no token in " + page);
    return token.group(1);
  }

  private HttpResponse<String> post(String path, Map<String, String> form, String... headers)
      throws Exception {
    String body =
        form.entrySet().stream()
            .map(
                e ->
                    URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8)
                        + "="
                        + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
            .collect(Collectors.joining("&"));
    HttpRequest.Builder request =
        HttpRequest.newBuilder(runtime.uri(path))
            .timeout(Duration.ofSeconds(60))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (headers.length > 0) {
      request.headers(headers);
    }
    return Http.CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** Posts an action with the token of the page at {@code pagePath}; asserts the 303. */
  private String act(String pagePath, String action, String... fields) throws Exception {
    Map<String, String> form = new LinkedHashMap<>();
    form.put("token", token(get(pagePath).body()));
    for (int i = 0; i + 1 < fields.length; i += 2) {
      form.put(fields[i], fields[i + 1]);
    }
    HttpResponse<String> done = post(action, form);
    assertEquals(303, done.statusCode(), done.body());
    return done.headers().firstValue("Location").orElseThrow();
  }

  private String typed(String name, String markup) throws Exception {
    return value(
        call(runtime, "typed?name=" + name + "&markup=" + URLEncoder.encode(markup, "UTF-8")),
        "typed");
  }

  private static final String KEY_PARAM = "/_ah/dev/datastore/entity?key=";

  @Test
  void statusPage_isTheConsolesFirstPage_inHtml_withItsSections() throws Exception {
    HttpResponse<String> page = get("/_ah/dev");
    assertTrue(page.headers().firstValue("Content-Type").orElse("").startsWith("text/html"));
    assertTrue(page.body().contains("<title>aerun development server</title>"), page.body());
    assertTrue(page.body().contains(modeShown()), page.body());
    assertTrue(page.body().contains("API host: local, 127.0.0.1:"), page.body());
    for (String section : List.of("datastore", "taskqueue", "cron", "memcache", "mail")) {
      assertTrue(page.body().contains("href=\"/_ah/dev/" + section + "\""), section);
    }
    String policy = page.headers().firstValue("Content-Security-Policy").orElse("");
    assertTrue(policy.contains("default-src 'none'"), policy);
    assertTrue(policy.contains("form-action 'self'"), policy);
    assertTrue(policy.contains("frame-ancestors 'none'"), policy);
    assertFalse(page.body().contains("<script"), "no scripts");
  }

  @Test
  void datastore_listsKindsAndEntities_andAnEntitysTypedProperties_escaped() throws Exception {
    String key = typed("shown", "<script>alert('x')</script>");
    String kinds = get("/_ah/dev/datastore").body();
    assertTrue(kinds.contains(">Typed</a>"), kinds);
    String list = get("/_ah/dev/datastore?kind=Typed").body();
    assertTrue(list.contains("Typed(&quot;shown&quot;)"), list);
    assertTrue(list.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"), list);
    assertFalse(list.contains("<script"), "markup of a value is escaped: " + list);

    String entity = get(KEY_PARAM + key).body();
    for (String row :
        List.of(
            "<td>text</td><td>String</td><td>yes</td><td>plain</td>",
            "<td>count</td><td>Long</td><td>yes</td><td>42</td>",
            "<td>ratio</td><td>Double</td><td>yes</td><td>2.5</td>",
            "<td>flag</td><td>Boolean</td><td>yes</td><td>true</td>",
            "<td>when</td><td>Date</td><td>yes</td><td>2024-05-01T12:00:00Z</td>",
            "<td>notes</td><td>Text</td><td>no</td><td>a long text</td>",
            "<td>tags</td><td>List of String</td><td>yes</td><td>[red, green]</td>",
            "<td>hidden</td><td>String</td><td>no</td><td>not indexed</td>")) {
      assertTrue(entity.contains(row), row + " in " + entity);
    }
    assertFalse(entity.contains("<script"), entity);
  }

  @Test
  void datastore_pagesAndFilters_aKindsEntities() throws Exception {
    for (int i = 0; i < 23; i++) {
      call(runtime, String.format("put?name=paged-%02d&value=v-%02d", i, i));
    }
    String first = get("/_ah/dev/datastore?kind=Greeting").body();
    assertEquals(20, count(first, KEY_PARAM), first);
    assertTrue(first.contains(">Next page</a>"), first);
    assertFalse(first.contains(">Previous page</a>"), first);
    String second = get("/_ah/dev/datastore?kind=Greeting&offset=20").body();
    assertTrue(second.contains(">Previous page</a>"), second);
    assertTrue(second.contains("Greeting(&quot;paged-22&quot;)"), second);
    assertFalse(second.contains("Greeting(&quot;paged-00&quot;)"), second);

    String filtered =
        get("/_ah/dev/datastore?kind=Greeting&fp=value&fo=%3D&ft=String&fv=v-07").body();
    assertEquals(1, count(filtered, KEY_PARAM), filtered);
    assertTrue(filtered.contains("Greeting(&quot;paged-07&quot;)"), filtered);
    String range =
        get("/_ah/dev/datastore?kind=Greeting&fp=value&fo=%3E%3D&ft=String&fv=v-21").body();
    assertTrue(range.contains("paged-21") && range.contains("paged-22"), range);
    assertFalse(range.contains("paged-20"), range);
  }

  private static int count(String text, String part) {
    int n = 0;
    for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
      n++;
    }
    return n;
  }

  /** Edits {@code property} of the entity {@code key} from its page; what the app then reads. */
  private String edit(String key, String property, String type, String value) throws Exception {
    act(
        KEY_PARAM + key,
        "/_ah/dev/datastore/edit",
        "key",
        key,
        "property",
        property,
        "type",
        type,
        "value",
        value);
    return call(runtime, "property?kind=Typed&name=edited&property=" + property);
  }

  @Test
  void datastore_editedProperties_areWhatTheAppReads() throws Exception {
    String key = typed("edited", "x");
    String count = edit(key, "count", "Long", "43");
    assertEquals("43", value(count, "value"));
    assertEquals("Long", value(count, "type"));
    String notes = edit(key, "notes", "Text", "<b>new</b> notes");
    assertEquals("<b>new</b> notes", value(notes, "value"));
    assertEquals("Text", value(notes, "type"));
    assertEquals("Date", value(edit(key, "when", "Date", "2030-01-02T03:04:05Z"), "type"));
    String shown = get(KEY_PARAM + key).body();
    assertTrue(
        shown.contains("<td>when</td><td>Date</td><td>yes</td><td>2030-01-02T03:04:05Z"), shown);
    assertTrue(shown.contains("&lt;b&gt;new&lt;/b&gt; notes"), shown);

    // A value that is not of the property's type changes nothing.
    Map<String, String> bad = new LinkedHashMap<>();
    bad.put("token", token(shown));
    bad.put("key", key);
    bad.put("property", "count");
    bad.put("type", "Long");
    bad.put("value", "forty-four");
    HttpResponse<String> refused = post("/_ah/dev/datastore/edit", bad);
    assertEquals(400, refused.statusCode(), refused.body());
    assertTrue(refused.body().contains("a Long is a whole number"), refused.body());
    assertEquals(
        "43", value(call(runtime, "property?kind=Typed&name=edited&property=count"), "value"));
  }

  @Test
  void datastore_aDeletedEntity_isGoneForTheApp() throws Exception {
    String key = typed("deleted", "x");
    assertEquals("true", value(call(runtime, "exists?kind=Typed&name=deleted"), "exists"));
    String location = act(KEY_PARAM + key, "/_ah/dev/datastore/delete", "key", key);
    assertTrue(location.startsWith("/_ah/dev/datastore?kind=Typed"), location);
    assertEquals("false", value(call(runtime, "exists?kind=Typed&name=deleted"), "exists"));
    assertEquals(404, Http.get(runtime.uri(KEY_PARAM + key)).statusCode());
  }

  @Test
  void taskQueues_listQueuesAndHeldTasks_runNow_delete_purge() throws Exception {
    String queues = get("/_ah/dev/taskqueue").body();
    for (String queue : List.of("default", "fast", "held")) {
      assertTrue(queues.contains(">" + queue + "</a>"), queue + " in " + queues);
    }
    assertTrue(queues.contains("0/s (paused)"), queues);
    List<String> tasks = new ArrayList<>();
    for (String id : List.of("held-run", "held-deleted", "held-purged")) {
      tasks.add(value(call(runtime, "task?queue=held&id=" + id), "added"));
    }
    String held = get("/_ah/dev/taskqueue/queue?name=held").body();
    for (String task : tasks) {
      assertTrue(held.contains("<td>" + task + "</td>"), task + " in " + held);
    }
    // Each with its ETA (when and how far from now), method, URL and retries.
    for (String task : tasks) {
      Pattern row =
          Pattern.compile(
              "<td>"
                  + Pattern.quote(task)
                  + "</td><td>\\d{4}-\\d\\d-\\d\\dT[0-9:.]+Z \\((in [^)]+|[^)]+ ago)\\)</td>"
                  + "<td>POST</td><td>/tasks/record</td><td>0</td>");
      assertTrue(row.matcher(held).find(), task + " with its ETA in " + held);
    }

    act(
        "/_ah/dev/taskqueue/queue?name=held",
        "/_ah/dev/taskqueue/run",
        "queue",
        "held",
        "task",
        tasks.get(0));
    String ran = seenBlocking(runtime, "held-run", Duration.ofSeconds(30));
    assertTrue(ran.contains("queue=held") && ran.contains("trustedQueue=held"), ran);
    assertFalse(get("/_ah/dev/taskqueue/queue?name=held").body().contains(tasks.get(0)));

    act(
        "/_ah/dev/taskqueue/queue?name=held",
        "/_ah/dev/taskqueue/delete",
        "queue",
        "held",
        "task",
        tasks.get(1));
    held = get("/_ah/dev/taskqueue/queue?name=held").body();
    assertFalse(held.contains(tasks.get(1)), held);
    assertTrue(held.contains(tasks.get(2)), held);

    act("/_ah/dev/taskqueue", "/_ah/dev/taskqueue/purge", "queue", "held");
    held = get("/_ah/dev/taskqueue/queue?name=held").body();
    assertTrue(held.contains("No tasks"), held);
    assertEquals("null", value(call(runtime, "seen?id=held-deleted"), "seen"));
    assertEquals("null", value(call(runtime, "seen?id=held-purged"), "seen"));
  }

  @Test
  void taskQueues_aFailedRun_showsItsRetryAndStatus() throws Exception {
    String task = value(call(runtime, "task?queue=held&id=held-failing&fail=1"), "added");
    act(
        "/_ah/dev/taskqueue/queue?name=held",
        "/_ah/dev/taskqueue/run",
        "queue",
        "held",
        "task",
        task);
    String held = get("/_ah/dev/taskqueue/queue?name=held").body();
    assertTrue(held.contains("<td>" + task + "</td>"), held);
    assertTrue(held.contains("<td>1</td><td>status 500</td>"), held);
  }

  @Test
  void cron_listsTheJobs_andRunsOne_withTheCronHeaderFromATrustedPeer() throws Exception {
    String page = get("/_ah/dev/cron").body();
    assertTrue(page.contains("<td>/cron/record?id=nightly</td><td>every 24 hours</td>"), page);
    assertTrue(page.contains("<td>every monday 09:00</td><td>Europe/Paris</td>"), page);
    assertTrue(page.contains("&lt;b&gt;nightly&lt;/b&gt; clean-up"), page);
    String location =
        act("/_ah/dev/cron", "/_ah/dev/cron/run", "job", "0", "url", "/cron/record?id=nightly");
    assertTrue(location.contains("status=200"), location);
    assertEquals(
        "method=GET cron=true trustedCron=true",
        value(call(runtime, "seen?id=cron-nightly"), "seen"));
    // A client cannot send the header itself: only loopback is trusted, and the console's
    // request came from there. (The runtime's trust policy is tested elsewhere.)
    assertTrue(get(location).body().contains("the app answered 200"));
  }

  @Test
  void memcache_showsItsStats_andIsFlushed() throws Exception {
    call(runtime, "memcache");
    String stats = get("/_ah/dev/memcache").body();
    Matcher items = Pattern.compile("<th>Items</th><td>(\\d+)</td>").matcher(stats);
    assertTrue(items.find(), stats);
    assertTrue(Integer.parseInt(items.group(1)) >= 2, stats);
    act("/_ah/dev/memcache", "/_ah/dev/memcache/flush");
    assertTrue(get("/_ah/dev/memcache").body().contains("<th>Items</th><td>0</td>"));
  }

  @Test
  void mail_listsWhatTheAppSent_escaped() throws Exception {
    call(runtime, "mail?subject=" + URLEncoder.encode("<i>report</i>", "UTF-8"));
    String page = get("/_ah/dev/mail").body();
    assertTrue(page.contains("&lt;i&gt;report&lt;/i&gt;"), page);
    assertTrue(page.contains("someone@example.com"), page);
    assertTrue(page.contains("app@apis-sample.example"), page);
    assertTrue(page.contains("&lt;p&gt;html of &lt;i&gt;report&lt;/i&gt;&lt;/p&gt;"), page);
    assertFalse(page.contains("<i>report"), page);
  }

  @Test
  void actions_withoutAToken_fromAnotherOrigin_orByGet_areRefused_andChangeNothing()
      throws Exception {
    String key = typed("kept", "x");
    String token = token(get(KEY_PARAM + key).body());
    String action = "/_ah/dev/datastore/delete";

    assertEquals(403, post(action, Map.of("key", key)).statusCode());
    assertEquals(403, post(action, Map.of("key", key, "token", "forged")).statusCode());
    assertEquals(
        403,
        post(action, Map.of("key", key, "token", token), "Origin", "http://evil.example")
            .statusCode());
    assertEquals(
        403,
        post(action, Map.of("key", key, "token", token), "Sec-Fetch-Site", "cross-site")
            .statusCode());
    HttpResponse<String> byGet = Http.get(runtime.uri(action + "?key=" + key + "&token=" + token));
    assertEquals(405, byGet.statusCode());
    assertEquals("true", value(call(runtime, "exists?kind=Typed&name=kept"), "exists"));

    // A host name other than this machine's (DNS rebinding) does not reach the console at all.
    String raw =
        Http.raw(
            runtime.port(),
            ("POST "
                    + action
                    + " HTTP/1.1\r\nHost: evil.example\r\n"
                    + "Content-Type: application/x-www-form-urlencoded\r\n"
                    + "Content-Length: "
                    + ("key=" + key + "&token=" + token).length()
                    + "\r\nConnection: close\r\n\r\nkey="
                    + key
                    + "&token="
                    + token)
                .getBytes(StandardCharsets.ISO_8859_1));
    RawResponse answer = RawResponse.parse(raw);
    assertTrue(answer.status() >= 400, raw);
    assertFalse(answer.body().contains("aerun development server"), raw);
    RawResponse page =
        RawResponse.parse(
            Http.raw(
                runtime.port(),
                ("GET /_ah/dev/datastore HTTP/1.1\r\nHost: evil.example\r\nConnection: close"
                        + "\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1)));
    assertFalse(page.body().contains("aerun development server"), page.body());
    assertEquals("true", value(call(runtime, "exists?kind=Typed&name=kept"), "exists"));

    // With its token, from its own page, the same action works.
    HttpResponse<String> done =
        post(
            action,
            Map.of("key", key, "token", token),
            "Origin",
            "http://127.0.0.1:" + runtime.port(),
            "Sec-Fetch-Site",
            "same-origin");
    assertEquals(303, done.statusCode(), done.body());
    assertNotNull(done.headers().firstValue("Location").orElse(null));
    assertEquals("false", value(call(runtime, "exists?kind=Typed&name=kept"), "exists"));
  }
}
