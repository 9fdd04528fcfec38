package dev.aerun.bench;

import java.util.List;

/** A server measured by the benchmarks. */
enum Peer {
  /** Jetty serving the WAR in a plain WebAppContext: the yardstick. */
  BARE("bare", "bare Jetty", List.of()),
  /** The runtime in HttpConnector mode. */
  HTTP("http", "HttpConnector", List.of("--mode", "http")),
  /** The runtime in legacy RPC mode, in-process gRPC transport (the launcher's default). */
  LEGACY("legacy", "legacy", List.of("--mode", "legacy")),
  /** Legacy RPC mode with gRPC over a loopback TCP socket. */
  LEGACY_TCP("legacy-tcp", "legacy (tcp)", List.of("--mode", "legacy", "--rpc-transport", "tcp"));

  final String id;
  final String label;
  final List<String> runtimeOptions;

  Peer(String id, String label, List<String> runtimeOptions) {
    this.id = id;
    this.label = label;
    this.runtimeOptions = runtimeOptions;
  }

  static Peer byId(String id) {
    for (Peer peer : values()) {
      if (peer.id.equals(id)) {
        return peer;
      }
    }
    throw new IllegalArgumentException(
        "unknown peer '" + id + "': expected bare, http, legacy or legacy-tcp");
  }
}
