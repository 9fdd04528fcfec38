package dev.aerun.main;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aerun.appengine.descriptor.ServingMode;
import dev.aerun.main.LaunchOptions.Role;
import dev.aerun.main.LaunchOptions.RpcTransportChoice;
import dev.aerun.rpc.transport.RpcTransport;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LaunchOptionsTest {
  private static LaunchOptions parse(Map<String, String> env, String... args) throws Exception {
    return LaunchOptions.parse(env, Map.of(), args);
  }

  @Test
  void defaultPortIs8080() throws Exception {
    assertEquals(8080, parse(Map.of(), "app").port());
  }

  @Test
  void portComesFromEnvironment() throws Exception {
    assertEquals(9090, parse(Map.of("PORT", "9090"), "app").port());
  }

  @Test
  void portOptionWinsOverEnvironment() throws Exception {
    assertEquals(7070, parse(Map.of("PORT", "9090"), "--port", "7070", "app").port());
  }

  @Test
  void optionWithEqualsSignIsRead() throws Exception {
    assertEquals(0, parse(Map.of(), "--port=0", "app").port());
  }

  @Test
  void sessionsJdbcUrl_noneByDefault_environmentThenOption() throws Exception {
    assertTrue(parse(Map.of(), "app").sessionsJdbcUrl().isEmpty());
    String env = "jdbc:postgresql://db:5432/a?user=u";
    assertEquals(
        env, parse(Map.of("AERUN_SESSIONS_JDBC_URL", env), "app").sessionsJdbcUrl().orElseThrow());
    assertEquals(
        "jdbc:postgresql://127.0.0.1/b",
        parse(
                Map.of("AERUN_SESSIONS_JDBC_URL", env),
                "--sessions-jdbc-url",
                "jdbc:postgresql://127.0.0.1/b",
                "app")
            .sessionsJdbcUrl()
            .orElseThrow());
  }

  @Test
  void sessionsJdbcUrl_otherDatabases_areUsageErrors() {
    UsageException e =
        assertThrows(
            UsageException.class,
            () -> parse(Map.of(), "--sessions-jdbc-url", "jdbc:h2:mem:x", "app"));
    assertTrue(e.getMessage().contains("jdbc:postgresql://"), e.getMessage());
  }

  @Test
  void shutdownGrace_defaultsTo10s_environmentThenOption() throws Exception {
    assertEquals(java.time.Duration.ofSeconds(10), parse(Map.of(), "app").shutdownGrace());
    assertEquals(
        java.time.Duration.ofSeconds(25),
        parse(Map.of("AERUN_SHUTDOWN_GRACE", "25s"), "app").shutdownGrace());
    assertEquals(
        java.time.Duration.ofMillis(500),
        parse(Map.of("AERUN_SHUTDOWN_GRACE", "25s"), "--shutdown-grace", "500ms", "app")
            .shutdownGrace());
  }

  @Test
  void badShutdownGraceIsAUsageErrorNamingTheSource() {
    UsageException option =
        assertThrows(
            UsageException.class, () -> parse(Map.of(), "--shutdown-grace", "soon", "app"));
    assertTrue(option.getMessage().contains("--shutdown-grace"), option.getMessage());
    assertTrue(option.getMessage().contains("'soon'"), option.getMessage());
    UsageException variable =
        assertThrows(
            UsageException.class, () -> parse(Map.of("AERUN_SHUTDOWN_GRACE", "-1s"), "app"));
    assertTrue(variable.getMessage().contains("AERUN_SHUTDOWN_GRACE"), variable.getMessage());
  }

  @Test
  void concurrencyOptions_absentByDefault() throws Exception {
    LaunchOptions options = parse(Map.of(), "app");
    assertEquals(Optional.empty(), options.maxConcurrentRequests());
    assertEquals(Optional.empty(), options.maxQueuedRequests());
    assertEquals(Optional.empty(), options.queueTimeout());
  }

  @Test
  void concurrencyOptions_areRead() throws Exception {
    LaunchOptions options =
        parse(
            Map.of(),
            "--max-concurrent-requests",
            "12",
            "--max-queued-requests=0",
            "--queue-timeout",
            "250ms",
            "app");
    assertEquals(Optional.of(12), options.maxConcurrentRequests());
    assertEquals(Optional.of(0), options.maxQueuedRequests());
    assertEquals(Optional.of(java.time.Duration.ofMillis(250)), options.queueTimeout());
  }

  @Test
  void queueTimeout_theWholeRange() throws Exception {
    assertEquals(
        Optional.of(java.time.Duration.ZERO),
        parse(Map.of(), "--queue-timeout", "0", "app").queueTimeout());
    assertEquals(
        Optional.of(java.time.Duration.ofMillis(1)),
        parse(Map.of(), "--queue-timeout", "1ms", "app").queueTimeout());
    assertEquals(
        Optional.of(java.time.Duration.ofMinutes(60)),
        parse(Map.of(), "--queue-timeout", "60m", "app").queueTimeout());
    assertThrows(UsageException.class, () -> parse(Map.of(), "--queue-timeout", "-1s", "app"));
  }

  @Test
  void requestBodyTimeout_isRead_absentByDefault_badValuesAreUsageErrors() throws Exception {
    assertEquals(Optional.empty(), parse(Map.of(), "app").requestBodyTimeout());
    assertEquals(
        Optional.of(java.time.Duration.ofSeconds(5)),
        parse(Map.of(), "--request-body-timeout", "5s", "app").requestBodyTimeout());
    assertEquals(
        Optional.of(java.time.Duration.ZERO),
        parse(Map.of(), "--request-body-timeout=0", "app").requestBodyTimeout());
    assertThrows(
        UsageException.class, () -> parse(Map.of(), "--request-body-timeout", "slow", "app"));
  }

  @Test
  void requestBodyMinRate_isRead_absentByDefault_zeroTurnsItOff() throws Exception {
    LaunchOptions none = parse(Map.of(), "app");
    assertEquals(Optional.empty(), none.requestBodyMinRate());
    assertEquals(Optional.empty(), none.requestBodyMinRateAfter());
    LaunchOptions set =
        parse(
            Map.of(),
            "--request-body-min-rate",
            "4k",
            "--request-body-min-rate-after",
            "10s",
            "app");
    assertEquals(Optional.of(4096L), set.requestBodyMinRate());
    assertEquals(Optional.of(java.time.Duration.ofSeconds(10)), set.requestBodyMinRateAfter());
    assertEquals(
        Optional.of(0L), parse(Map.of(), "--request-body-min-rate=0", "app").requestBodyMinRate());
    assertThrows(
        UsageException.class, () -> parse(Map.of(), "--request-body-min-rate", "fast", "app"));
    assertThrows(
        UsageException.class, () -> parse(Map.of(), "--request-body-min-rate", "-1", "app"));
    assertThrows(
        UsageException.class,
        () -> parse(Map.of(), "--request-body-min-rate-after", "soon", "app"));
  }

  @Test
  void bodyMemoryWait_isRead_absentByDefault() throws Exception {
    assertEquals(Optional.empty(), parse(Map.of(), "app").bodyMemoryWait());
    assertEquals(
        Optional.of(java.time.Duration.ofSeconds(5)),
        parse(Map.of(), "--body-memory-wait", "5s", "app").bodyMemoryWait());
    assertEquals(
        Optional.of(java.time.Duration.ZERO),
        parse(Map.of(), "--body-memory-wait=0", "app").bodyMemoryWait());
    assertThrows(UsageException.class, () -> parse(Map.of(), "--body-memory-wait", "x", "app"));
  }

  @Test
  void concurrencyOptions_badValuesAreUsageErrors() {
    UsageException zero =
        assertThrows(
            UsageException.class, () -> parse(Map.of(), "--max-concurrent-requests", "0", "app"));
    assertTrue(zero.getMessage().contains("--max-concurrent-requests"), zero.getMessage());
    assertTrue(zero.getMessage().contains("at least 1"), zero.getMessage());
    UsageException negative =
        assertThrows(
            UsageException.class, () -> parse(Map.of(), "--max-queued-requests", "-1", "app"));
    assertTrue(negative.getMessage().contains("at least 0"), negative.getMessage());
    assertThrows(
        UsageException.class, () -> parse(Map.of(), "--max-concurrent-requests", "many", "app"));
    assertThrows(UsageException.class, () -> parse(Map.of(), "--queue-timeout", "soon", "app"));
  }

  @Test
  void badPortIsAUsageError() {
    UsageException e =
        assertThrows(UsageException.class, () -> parse(Map.of(), "--port", "x", "a"));
    assertTrue(e.getMessage().contains("--port"), e.getMessage());
    assertFalse(e.isHelp());
  }

  @Test
  void badPortInEnvironmentNamesTheVariable() {
    UsageException e =
        assertThrows(UsageException.class, () -> parse(Map.of("PORT", "99999"), "app"));
    assertTrue(e.getMessage().contains("PORT"), e.getMessage());
  }

  @Test
  void defaultAddressIsAllInterfaces() throws Exception {
    assertEquals("0.0.0.0", parse(Map.of(), "app").address());
  }

  @Test
  void addressOption() throws Exception {
    assertEquals("127.0.0.1", parse(Map.of(), "--address", "127.0.0.1", "app").address());
  }

  @Test
  void appFromPositionalArgument() throws Exception {
    assertEquals(Optional.of(Path.of("my.war")), parse(Map.of(), "my.war").app());
  }

  @Test
  void appFromEnvironmentWhenNoArgument() throws Exception {
    assertEquals(Optional.of(Path.of("/srv/app")), parse(Map.of("AERUN_APP", "/srv/app")).app());
  }

  @Test
  void missingAppIsAUsageError() {
    UsageException e = assertThrows(UsageException.class, () -> parse(Map.of()));
    assertTrue(e.getMessage().contains("no app"), e.getMessage());
  }

  @Test
  void twoAppsAreAUsageError() {
    assertThrows(UsageException.class, () -> parse(Map.of(), "a", "b"));
  }

  @Test
  void unknownOptionIsAUsageError() {
    UsageException e = assertThrows(UsageException.class, () -> parse(Map.of(), "--nope", "a"));
    assertTrue(e.getMessage().contains("--nope"), e.getMessage());
  }

  @Test
  void optionWithoutValueIsAUsageError() {
    UsageException e = assertThrows(UsageException.class, () -> parse(Map.of(), "a", "--port"));
    assertTrue(e.getMessage().contains("needs a value"), e.getMessage());
  }

  @Test
  void helpIsFlagged() {
    UsageException e = assertThrows(UsageException.class, () -> parse(Map.of(), "--help"));
    assertTrue(e.isHelp());
    assertTrue(e.getMessage().contains("--trusted-proxies"));
  }

  @Test
  void modeOverride() throws Exception {
    assertEquals(
        Optional.of(ServingMode.HTTP_CONNECTOR), parse(Map.of(), "--mode", "http", "a").mode());
    assertEquals(
        Optional.of(ServingMode.LEGACY_RPC), parse(Map.of(), "--mode", "LEGACY", "a").mode());
    assertEquals(Optional.empty(), parse(Map.of(), "a").mode());
  }

  @Test
  void badModeIsAUsageError() {
    assertThrows(UsageException.class, () -> parse(Map.of(), "--mode", "fast", "a"));
  }

  @Test
  void platformVariablesAreKeptAndOthersDropped() throws Exception {
    LaunchOptions o =
        parse(Map.of("GAE_APPLICATION", "s~demo", "HOME", "/root", "GAE_VERSION", " "), "a");
    assertEquals(Map.of("GAE_APPLICATION", "s~demo"), o.platform());
  }

  @Test
  void onPlatformWhenGaeEnvIsSet() throws Exception {
    assertTrue(parse(Map.of("GAE_ENV", "standard"), "a").onPlatform());
    assertFalse(parse(Map.of(), "a").onPlatform());
  }

  @Test
  void platformVariablesFromTheDescriptorNeverConfigureTheRuntime() throws Exception {
    LaunchOptions o =
        parse(
            Map.of(
                "GAE_ENV",
                "standard",
                "PORT",
                "1",
                "GAE_APPLICATION",
                "from-descriptor",
                "GAE_VERSION",
                "v1",
                EnvVariables.FROM_DESCRIPTOR_VARIABLE,
                "GAE_ENV,PORT,GAE_APPLICATION,GAE_ENV"),
            "a");
    assertFalse(o.onPlatform());
    assertEquals(LaunchOptions.DEFAULT_PORT, o.port());
    assertEquals(Map.of("GAE_VERSION", "v1"), o.platform());
  }

  @Test
  void trustedProxiesOption() throws Exception {
    var policy = parse(Map.of(), "--trusted-proxies", "10.0.0.0/8", "a").trustedProxies();
    assertTrue(policy.orElseThrow().isTrusted(java.net.InetAddress.getByName("10.1.2.3")));
    assertFalse(policy.orElseThrow().isTrusted(java.net.InetAddress.getByName("11.1.2.3")));
  }

  @Test
  void forwardedFrom_optionOrEnvironment_trustsForForwardingOnly() throws Exception {
    var peer = java.net.InetAddress.getByName("35.191.1.2");
    LaunchOptions option = parse(Map.of(), "--forwarded-from", "35.191.0.0/16", "a");
    assertTrue(option.forwardedFrom().orElseThrow().isTrusted(peer));
    assertTrue(option.trustedProxies().isEmpty());
    var contract = AppSettings.contract(Map.of(), option);
    assertTrue(contract.forwardedFrom().isTrusted(peer));
    assertFalse(contract.trustPolicy().isTrusted(peer));

    LaunchOptions all = parse(Map.of(LaunchOptions.FORWARDED_FROM_VARIABLE, "all"), "a");
    assertTrue(all.forwardedFrom().orElseThrow().isTrusted(peer));
    // The command line wins over the environment.
    LaunchOptions both =
        parse(
            Map.of(LaunchOptions.FORWARDED_FROM_VARIABLE, "all"),
            "--forwarded-from",
            "10.0.0.0/8",
            "a");
    assertFalse(both.forwardedFrom().orElseThrow().isTrusted(peer));
    assertTrue(parse(Map.of(), "a").forwardedFrom().isEmpty());
  }

  @Test
  void badForwardedFrom_isAUsageErrorNamingItsSource() {
    UsageException option =
        assertThrows(UsageException.class, () -> parse(Map.of(), "--forwarded-from", "x", "a"));
    assertTrue(option.getMessage().startsWith("--forwarded-from: "), option.getMessage());
    UsageException variable =
        assertThrows(
            UsageException.class,
            () -> parse(Map.of(LaunchOptions.FORWARDED_FROM_VARIABLE, "10.0.0.0/99"), "a"));
    assertTrue(
        variable.getMessage().startsWith("environment variable AERUN_FORWARDED_FROM: "),
        variable.getMessage());
    // 'all' is for forwarding headers only.
    assertThrows(UsageException.class, () -> parse(Map.of(), "--trusted-proxies", "all", "a"));
  }

  @Test
  void badTrustedProxiesIsAUsageError() {
    UsageException e =
        assertThrows(
            UsageException.class,
            () -> parse(Map.of(), "--trusted-proxies", "10.0.0.0/8,not-an-address", "a"));
    assertTrue(e.getMessage().startsWith("--trusted-proxies: "), e.getMessage());
    assertTrue(e.getMessage().contains("not-an-address"), e.getMessage());
  }

  @Test
  void badTrustedProxiesExitsWithTheUsageCode() {
    var err = new java.io.ByteArrayOutputStream();
    int exit =
        Launcher.run(
            Map.of(),
            Map.of(),
            new String[] {"--trusted-proxies", "10.0.0.999", "app"},
            new java.io.PrintStream(new java.io.ByteArrayOutputStream()),
            new java.io.PrintStream(err));
    assertEquals(Launcher.EXIT_USAGE, exit, err.toString());
    assertTrue(err.toString().startsWith("error: --trusted-proxies: "), err.toString());
  }

  @Test
  void warLimits_default2GiBAnd100000Entries_optionsRaiseThem() throws Exception {
    assertEquals(2L * 1024 * 1024 * 1024, parse(Map.of(), "a").warLimits().maxBytes());
    assertEquals(100_000, parse(Map.of(), "a").warLimits().maxEntries());
    LaunchOptions raised =
        parse(Map.of(), "--max-war-size", "8g", "--max-war-entries", "250000", "a");
    assertEquals(8L * 1024 * 1024 * 1024, raised.warLimits().maxBytes());
    assertEquals(250_000, raised.warLimits().maxEntries());
    assertEquals(
        512L * 1024, parse(Map.of(), "--max-war-size", "512K", "a").warLimits().maxBytes());
    assertEquals(1000, parse(Map.of(), "--max-war-size", "1000", "a").warLimits().maxBytes());
  }

  @Test
  void badWarLimitsAreUsageErrors() {
    for (String size : new String[] {"0", "-1", "2x", "g", "", "99999999999g"}) {
      UsageException e =
          assertThrows(UsageException.class, () -> parse(Map.of(), "--max-war-size", size, "a"));
      assertTrue(e.getMessage().contains("--max-war-size"), e.getMessage());
    }
    assertThrows(UsageException.class, () -> parse(Map.of(), "--max-war-entries", "0", "a"));
  }

  @Test
  void systemPropertiesAreKept() throws Exception {
    LaunchOptions o =
        LaunchOptions.parse(Map.of(), Map.of("appengine.use.HttpConnector", "true"), "a");
    assertEquals("true", o.systemProperties().get("appengine.use.HttpConnector"));
  }

  private static UsageException usageError(String... args) {
    return assertThrows(UsageException.class, () -> parse(Map.of(), args));
  }

  @Test
  void rpcTransportDefaultsToInProcess() throws Exception {
    assertEquals(RpcTransportChoice.INPROCESS, parse(Map.of(), "a").rpcTransport());
  }

  @Test
  void rpcTransportOption() throws Exception {
    assertEquals(
        RpcTransportChoice.TCP, parse(Map.of(), "--rpc-transport", "tcp", "a").rpcTransport());
    assertEquals(
        RpcTransportChoice.UNIX, parse(Map.of(), "--rpc-transport=UNIX", "a").rpcTransport());
    assertEquals(
        RpcTransportChoice.INPROCESS,
        parse(Map.of(), "--rpc-transport", "inprocess", "a").rpcTransport());
  }

  @Test
  void badRpcTransportIsAUsageErrorNamingTheChoices() {
    UsageException e = usageError("--rpc-transport", "carrier-pigeon", "a");
    assertTrue(e.getMessage().contains("'inprocess', 'tcp' or 'unix'"), e.getMessage());
    assertTrue(e.getMessage().contains("carrier-pigeon"), e.getMessage());
  }

  @Test
  void rpcTransportWithModeHttpIsAUsageError() {
    assertThrows(
        UsageException.class, () -> parse(Map.of(), "--mode", "http", "--rpc-transport", "tcp"));
  }

  @Test
  void roleDefaultsToAll() throws Exception {
    assertEquals(Role.ALL, parse(Map.of(), "a").role());
  }

  @Test
  void badRoleIsAUsageError() {
    UsageException e = usageError("--role", "back", "a");
    assertTrue(e.getMessage().contains("'all', 'front' or 'runtime'"), e.getMessage());
  }

  @Test
  void runtimeRoleWithTcpListenAddress() throws Exception {
    LaunchOptions o = parse(Map.of(), "--role", "runtime", "--rpc-listen", "tcp:127.0.0.1:0", "a");
    assertEquals(Role.RUNTIME, o.role());
    assertEquals(Optional.of(RpcTransport.tcp("127.0.0.1", 0)), o.rpcListen());
    assertEquals(Optional.empty(), o.rpcTarget());
  }

  @Test
  void runtimeRoleWithUnixListenAddress() throws Exception {
    LaunchOptions o = parse(Map.of(), "--role", "runtime", "--rpc-listen", "unix:/run/a.sock", "a");
    assertEquals(Optional.of(RpcTransport.unix(Path.of("/run/a.sock"))), o.rpcListen());
  }

  @Test
  void runtimeRoleNeedsAListenAddress() {
    UsageException e = usageError("--role", "runtime", "a");
    assertTrue(e.getMessage().contains("--rpc-listen"), e.getMessage());
  }

  @Test
  void runtimeRoleNeedsAnApp() {
    UsageException e = usageError("--role", "runtime", "--rpc-listen", "tcp:127.0.0.1:0");
    assertTrue(e.getMessage().contains("no app"), e.getMessage());
  }

  @Test
  void frontRoleNeedsNoApp() throws Exception {
    LaunchOptions o = parse(Map.of(), "--role", "front", "--rpc-target", "tcp:127.0.0.1:7000");
    assertEquals(Role.FRONT, o.role());
    assertEquals(Optional.of(RpcTransport.tcp("127.0.0.1", 7000)), o.rpcTarget());
    assertEquals(Optional.empty(), o.app());
  }

  @Test
  void frontRoleMayNameAnApp() throws Exception {
    LaunchOptions o =
        parse(Map.of(), "--role", "front", "--rpc-target", "unix:/run/a.sock", "my.war");
    assertEquals(Optional.of(Path.of("my.war")), o.app());
  }

  @Test
  void frontRoleNeedsATarget() {
    UsageException e = usageError("--role", "front");
    assertTrue(e.getMessage().contains("--rpc-target"), e.getMessage());
  }

  @Test
  void frontRoleTargetNeedsARealPort() {
    UsageException e = usageError("--role", "front", "--rpc-target", "tcp:127.0.0.1:0");
    assertTrue(e.getMessage().contains("port"), e.getMessage());
  }

  @Test
  void badRpcTargetIsAUsageErrorNamingTheForms() {
    UsageException e = usageError("--role", "front", "--rpc-target", "127.0.0.1:7000");
    assertTrue(e.getMessage().startsWith("--rpc-target: "), e.getMessage());
    assertTrue(e.getMessage().contains("tcp:HOST:PORT"), e.getMessage());
  }

  @Test
  void inProcessIsNoAddressForASplit() {
    UsageException e = usageError("--role", "front", "--rpc-target", "inprocess");
    assertTrue(e.getMessage().contains("tcp:HOST:PORT or unix:PATH"), e.getMessage());
  }

  @Test
  void rpcTargetWithoutFrontRoleIsAUsageError() {
    UsageException e = usageError("--rpc-target", "tcp:127.0.0.1:7000", "a");
    assertTrue(e.getMessage().contains("--role front"), e.getMessage());
  }

  @Test
  void rpcListenWithoutRuntimeRoleIsAUsageError() {
    UsageException e =
        usageError("--role", "front", "--rpc-target", "tcp:h:1", "--rpc-listen", "tcp:h:2");
    assertTrue(e.getMessage().contains("--role runtime"), e.getMessage());
  }

  @Test
  void rpcTransportWithASplitRoleIsAUsageError() {
    UsageException e =
        usageError("--role", "runtime", "--rpc-listen", "tcp:h:0", "--rpc-transport", "tcp", "a");
    assertTrue(e.getMessage().contains("--rpc-listen"), e.getMessage());
  }

  @Test
  void splitRoleWithModeHttpIsAUsageError() {
    UsageException e =
        usageError("--mode", "http", "--role", "runtime", "--rpc-listen", "tcp:h:0", "a");
    assertTrue(e.getMessage().contains("legacy"), e.getMessage());
  }

  @Test
  void helpDescribesTheLegacyOptions() {
    UsageException e = usageError("--help");
    for (String option :
        new String[] {"--rpc-transport", "--role", "--rpc-listen", "--rpc-target"}) {
      assertTrue(e.getMessage().contains(option), option);
    }
  }
}
