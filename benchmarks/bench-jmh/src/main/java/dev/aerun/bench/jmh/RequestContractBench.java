package dev.aerun.bench.jmh;

import dev.aerun.runtime.contract.ContractOptions;
import dev.aerun.runtime.contract.ContractResult;
import dev.aerun.runtime.contract.RequestContract;
import dev.aerun.runtime.contract.TrustPolicy;
import java.net.InetSocketAddress;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.openjdk.jmh.annotations.Benchmark;

/**
 * The request contract ({@link RequestContract#apply}) on the requests both modes see most: a
 * browser's request from an untrusted peer (nothing to do: the common case off the platform), the
 * platform front end's request from a trusted peer (headers read, private ones hidden), and the
 * same platform headers forged by an untrusted client (all removed).
 */
public class RequestContractBench extends JmhSettings {
  static final InetSocketAddress PEER = new InetSocketAddress("127.0.0.1", 40000);

  private final RequestContract trustNone = new RequestContract(ContractOptions.defaults());
  private final RequestContract trustAll =
      new RequestContract(new ContractOptions(TrustPolicy.trustAll(), false));
  private final HttpFields browser = browserHeaders().asImmutable();
  private final HttpFields platform = platformHeaders().asImmutable();

  /** What a browser sends. */
  static HttpFields.Mutable browserHeaders() {
    return HttpFields.build()
        .add(HttpHeader.HOST, "app.example.com")
        .add(HttpHeader.USER_AGENT, "Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/120.0")
        .add(HttpHeader.ACCEPT, "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")
        .add(HttpHeader.ACCEPT_LANGUAGE, "en-GB,en;q=0.5")
        .add(HttpHeader.ACCEPT_ENCODING, "gzip, deflate, br")
        .add(HttpHeader.COOKIE, "session=abc123; theme=dark")
        .add(HttpHeader.CONNECTION, "keep-alive");
  }

  /** What the platform's front end adds to it. */
  static HttpFields.Mutable platformHeaders() {
    return browserHeaders()
        .add("X-AppEngine-User-IP", "203.0.113.7")
        .add("X-AppEngine-Https", "on")
        .add("X-AppEngine-Timeout-Ms", "60000")
        .add("X-AppEngine-Request-Log-Id", "5f1d3a2b00ff0a1b2c3d4e5f60718293a4b5c6")
        .add("X-AppEngine-Default-Version-Hostname", "app.example.com")
        .add("X-AppEngine-Country", "GB")
        .add("X-AppEngine-User-Email", "user@example.com")
        .add("X-Cloud-Trace-Context", "4bf92f3577b34da6a3ce929d0e0e4736/12345;o=1")
        .add("X-Forwarded-For", "203.0.113.7")
        .add("X-Forwarded-Proto", "https");
  }

  @Benchmark
  public ContractResult browserFromUntrustedPeer() {
    return trustNone.apply(browser, PEER, false);
  }

  @Benchmark
  public ContractResult platformFromTrustedFrontEnd() {
    return trustAll.apply(platform, PEER, false);
  }

  @Benchmark
  public ContractResult forgedPlatformHeadersFromUntrustedPeer() {
    return trustNone.apply(platform, PEER, false);
  }
}
