package dev.aerun.runtime.dev;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DevelopmentHostsTest {
  @Test
  void loopbackNames_areTheDevelopersMachine() {
    DevelopmentHosts hosts = DevelopmentHosts.loopback();
    for (String host :
        List.of("localhost", "LocalHost", "127.0.0.1", "127.255.0.9", "[::1]", "::1")) {
      assertTrue(hosts.test(host), host);
    }
    for (String host :
        List.of(
            "",
            "evil.example",
            "localhost.",
            "127.0.0.1.nip.io",
            "127.0.0",
            "128.0.0.1",
            "[::2]")) {
      assertFalse(hosts.test(host), host);
    }
    assertFalse(hosts.test(null));
  }

  @Test
  void extraNames_matchIgnoringCase_andIpv6InEitherForm() {
    DevelopmentHosts hosts =
        DevelopmentHosts.withNames(List.of("DevBox.Test", "fd00::2", "10.1.2.3"));
    assertTrue(hosts.test("devbox.test"));
    assertTrue(hosts.test("[fd00::2]"));
    assertTrue(hosts.test("fd00::2"));
    assertTrue(hosts.test("10.1.2.3"));
    assertFalse(hosts.test("other.test"));
    assertEquals(Set.of("10.1.2.3", "[fd00::2]", "devbox.test"), hosts.names());
  }

  @Test
  void aNameThatIsNoHostName_isRefused() {
    for (String bad : List.of("", " ", "a b", "evil/x", "a:b@c", "-x", ".x", "x_y")) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class, () -> DevelopmentHosts.withNames(List.of(bad)));
      assertTrue(e.getMessage().contains("not a host name"), e.getMessage());
    }
  }
}
