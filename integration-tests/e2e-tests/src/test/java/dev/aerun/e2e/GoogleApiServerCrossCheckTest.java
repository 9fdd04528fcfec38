package dev.aerun.e2e;

import static dev.aerun.e2e.BundledServices.call;
import static dev.aerun.e2e.BundledServices.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.testing.RuntimeProcess;
import dev.aerun.testing.Runtimes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The runtime's API client against Google's own API server of the local services ({@link
 * GoogleApiServer}), named with {@code API_HOST} and {@code API_PORT} as on the platform: the
 * dialect, not only our own host, is right.
 */
class GoogleApiServerCrossCheckTest {
  @RegisterExtension static final Runtimes runtimes = new Runtimes();

  @Test
  void datastorePutGetThroughGooglesHttpApiServer() throws Exception {
    try (GoogleApiServer server = GoogleApiServer.start()) {
      int port = server.portBlocking();
      RuntimeProcess runtime =
          runtimes.start(
              RuntimeProcess.launch(RuntimeProcess.app("sample-apis-ee10.war"))
                  .args("--log-format", "text")
                  .env("API_HOST", "127.0.0.1")
                  .env("API_PORT", Integer.toString(port)));
      runtime.port();
      assertTrue(runtime.output().contains("API host 127.0.0.1:" + port), runtime.output());
      call(runtime, "put?name=cross&value=v-cross");
      assertEquals("v-cross", value(call(runtime, "get?name=cross"), "value"));
      String memcache = call(runtime, "memcache");
      assertEquals("hello", value(memcache, "get"));
    }
  }
}
