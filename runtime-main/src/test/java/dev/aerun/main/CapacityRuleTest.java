package dev.aerun.main;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.appengine.descriptor.AppEngineWebXml;
import dev.aerun.appengine.descriptor.AppEngineWebXmlParser;
import dev.aerun.runtime.load.Capacity;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How the launcher decides how many requests run at once: {@link AppSettings#capacity}. */
class CapacityRuleTest {
  private static final long HEAP = 512L * 1024 * 1024; // 64 requests by default

  private static AppEngineWebXml descriptor(String body) throws Exception {
    String xml =
        "<appengine-web-app xmlns=\"http://appengine.google.com/ns/1.0\">"
            + "<runtime>java21</runtime>"
            + body
            + "</appengine-web-app>";
    return AppEngineWebXmlParser.parse(
        new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), "appengine-web.xml");
  }

  private static LaunchOptions options(Map<String, String> properties, String... args)
      throws Exception {
    String[] all = new String[args.length + 1];
    System.arraycopy(args, 0, all, 0, args.length);
    all[args.length] = "app";
    return LaunchOptions.parse(Map.of(), properties, all);
  }

  private static final String MAX_10 =
      "<automatic-scaling><max-concurrent-requests>10</max-concurrent-requests>"
          + "</automatic-scaling>";

  @Test
  void withoutAnySetting_theHeapDecides() throws Exception {
    Capacity capacity = AppSettings.capacity(descriptor(""), options(Map.of()), HEAP);

    assertEquals(64, capacity.maxConcurrentRequests());
    assertEquals(64, capacity.maxQueuedRequests());
    assertEquals(Duration.ofSeconds(1), capacity.maxQueueWait());
    assertFalse(capacity.virtualThreads());
  }

  @Test
  void descriptorsMaxConcurrentRequests_isHonoured() throws Exception {
    Capacity capacity = AppSettings.capacity(descriptor(MAX_10), options(Map.of()), HEAP);

    assertEquals(10, capacity.maxConcurrentRequests());
    assertEquals(10, capacity.maxQueuedRequests());
  }

  @Test
  void optionWinsOverTheDescriptor() throws Exception {
    Capacity capacity =
        AppSettings.capacity(
            descriptor(MAX_10),
            options(
                Map.of(),
                "--max-concurrent-requests",
                "3",
                "--max-queued-requests",
                "7",
                "--queue-timeout",
                "2s"),
            HEAP);

    assertEquals(3, capacity.maxConcurrentRequests());
    assertEquals(7, capacity.maxQueuedRequests());
    assertEquals(Duration.ofSeconds(2), capacity.maxQueueWait());
  }

  @Test
  void basicScaling_leavesTheDefault() throws Exception {
    Capacity capacity =
        AppSettings.capacity(
            descriptor("<basic-scaling><max-instances>2</max-instances></basic-scaling>"),
            options(Map.of()),
            HEAP);

    assertEquals(64, capacity.maxConcurrentRequests());
  }

  @Test
  void virtualThreads_fromTheDescriptor_nameMatchedIgnoringCase() throws Exception {
    AppEngineWebXml asked =
        descriptor(
            "<system-properties>"
                + "<property name=\"appengine.use.VirtualThreads\" value=\"true\"/>"
                + "</system-properties>");

    assertTrue(AppSettings.capacity(asked, options(Map.of()), HEAP).virtualThreads());
  }

  @Test
  void virtualThreads_commandLineOverridesTheDescriptor() throws Exception {
    AppEngineWebXml asked =
        descriptor(
            "<system-properties>"
                + "<property name=\"appengine.use.VirtualThreads\" value=\"true\"/>"
                + "</system-properties>");

    assertFalse(
        AppSettings.capacity(asked, options(Map.of("appengine.use.virtualthreads", "false")), HEAP)
            .virtualThreads());
    assertTrue(
        AppSettings.capacity(
                descriptor(""), options(Map.of("appengine.use.virtualthreads", "true")), HEAP)
            .virtualThreads());
  }
}
