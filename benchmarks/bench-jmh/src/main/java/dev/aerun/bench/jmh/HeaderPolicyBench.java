package dev.aerun.bench.jmh;

import dev.aerun.runtime.contract.RequestContract;
import dev.aerun.runtime.contract.TrustPolicy;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HttpField;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The header policy alone: classifying every header name of a platform request (the contract does
 * this once per header of every request), and checking a peer against a trusted-proxy list. Same
 * package as {@link RequestContract}, whose classifier is package-private.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class HeaderPolicyBench {
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
