package dev.aerun.bench.jmh;

import dev.aerun.runtime.contract.RequestContract;
import dev.aerun.runtime.contract.TrustPolicy;
import org.eclipse.jetty.http.HttpField;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The header policy alone: classifying every header name of a platform request (the contract does
 * this once per header of every request), and checking a peer against a trusted-proxy list.
 */
public class HeaderPolicyBench extends JmhSettings {
  private final String[] names =
      RequestContractBench.platformHeaders().stream()
          .map(HttpField::getName)
          .toArray(String[]::new);
  private final TrustPolicy proxies = TrustPolicy.parse("10.0.0.0/8,172.16.0.0/12,::1,127.0.0.1");

  @Benchmark
  public void classifyPlatformRequestHeaders(Blackhole blackhole) {
    for (String name : names) {
      blackhole.consume(RequestContract.classify(name));
    }
  }

  @Benchmark
  public boolean trustedProxyListLookup() {
    return proxies.isTrusted(RequestContractBench.PEER.getAddress());
  }
}
