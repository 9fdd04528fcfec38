package dev.aerun.bench.jmh;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.aerun.rpc.proto.HttpHeader;
import dev.aerun.rpc.proto.HttpRequest;
import dev.aerun.rpc.proto.TraceContext;
import dev.aerun.rpc.proto.UPRequest;
import dev.aerun.rpc.runtime.UpRequestTranslator;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * Legacy mode's runtime side: an {@link UPRequest} turned into the Jetty request metadata the RPC
 * connector runs ({@link UpRequestTranslator#translate}), and, for the socket transports, the
 * message's serialization and parsing, with a small and a 1 MiB body.
 */
public class UpRequestTranslatorBench extends JmhSettings {
  @Param({"1024", "1048576"})
  public int bodySize;

  private UPRequest up;
  private byte[] wire;

  @Setup
  public void setUp() {
    HttpRequest.Builder http =
        HttpRequest.newBuilder()
            .setMethod("POST")
            .setUrl("http://app.example.com/bytes?size=32768")
            .setHttpVersion("HTTP/1.1")
            .setBody(ByteString.copyFrom(new byte[bodySize]))
            .setUserIp("203.0.113.7")
            .setUserPort(0)
            .setLocalAddress("127.0.0.1")
            .setLocalPort(8080);
    String[][] headers = {
      {"Host", "app.example.com"},
      {"User-Agent", "Mozilla/5.0 (X11; Linux x86_64) Gecko/20100101 Firefox/120.0"},
      {"Accept", "*/*"},
      {"Accept-Encoding", "gzip, deflate, br"},
      {"Content-Type", "application/octet-stream"},
      {"Content-Length", Integer.toString(bodySize)},
      {"X-Cloud-Trace-Context", "4bf92f3577b34da6a3ce929d0e0e4736/12345;o=1"},
    };
    for (String[] header : headers) {
      http.addHeaders(HttpHeader.newBuilder().setName(header[0]).setValue(header[1]));
    }
    up =
        UPRequest.newBuilder()
            .setAppId("s~bench")
            .setVersionId("v1")
            .setServiceId("default")
            .setRequestLogId("5f1d3a2b00ff0a1b2c3d4e5f60718293a4b5c6")
            .setTimeoutMillis(60_000)
            .setTrace(
                TraceContext.newBuilder()
                    .setTraceId("4bf92f3577b34da6a3ce929d0e0e4736")
                    .setSpanId("0000000000003039")
                    .setSampled(true))
            .setRequest(http)
            .build();
    wire = up.toByteArray();
  }

  @Benchmark
  public UpRequestTranslator.Translated translate() throws Exception {
    return UpRequestTranslator.translate(up, System.nanoTime());
  }

  @Benchmark
  public byte[] serialize() {
    return up.toByteArray();
  }

  @Benchmark
  public UPRequest parse() throws InvalidProtocolBufferException {
    return UPRequest.parseFrom(wire);
  }
}
