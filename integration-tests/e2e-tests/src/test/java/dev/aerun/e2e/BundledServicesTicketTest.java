package dev.aerun.e2e;

import static dev.aerun.e2e.BundledServices.call;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.testing.RuntimeProcess;
import dev.aerun.testing.Runtimes;
import dev.aerun.testing.TempDirs;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** An API ticket from a peer the runtime does not trust never reaches the API host. */
class BundledServicesTicketTest {
  @RegisterExtension static final Runtimes runtimes = new Runtimes();

  @Test
  void untrustedTicketIsReplacedByAnIdOfTheRuntimesOwn() throws Exception {
    RuntimeProcess runtime =
        runtimes.start(
            RuntimeProcess.launch(RuntimeProcess.app("sample-apis-ee10.war"))
                .args(
                    "--development",
                    "--log-format",
                    "text",
                    // Only this address is trusted: the test's loopback client is not.
                    "--trusted-proxies",
                    "192.0.2.1",
                    "--api-data",
                    TempDirs.deletedAtExit("aerun-apis-ticket-").toString())
                .env("AERUN_API_HOST_LOG_CALLS", "1"));
    call(runtime, "memcache", "X-AppEngine-Api-Ticket: forged-ticket");
    runtime.awaitOutput(Pattern.compile("request_id=aerun-[0-9a-f]+"));
    assertFalse(runtime.output().contains("forged-ticket"), runtime.output());
    assertTrue(runtime.output().contains("call memcache.Set"), runtime.output());
  }
}
