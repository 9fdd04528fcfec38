package dev.aerun.main;

import dev.aerun.runtime.logging.RuntimeLogs;
import java.io.File;

/** The usage text {@code --help} prints: every option of {@link LaunchOptions}. */
final class LaunchUsage {
  /** The usage text. */
  static String text() {
    return String.join(
        "\n",
        "Usage: java [-Dname=value ...] -jar runtime-main.jar [options] <app-dir-or-war>",
        "       java -jar runtime-main.jar stage [--image-repo REPO] [--base DIR] <app> <out-dir>",
        "",
        "Serves one App Engine-style Java web app (EE8 javax.servlet, EE10 or EE11 jakarta.servlet)",
        "on Jetty 12, as its WEB-INF/appengine-web.xml describes.",
        "",
        "Options:",
        "  --port N                port to listen on (default: $PORT, else 8080; 0 = any free)",
        "  --address A             address to bind (default 0.0.0.0)",
        "  --mode http|legacy      serving mode, overriding appengine.use.HttpConnector",
        "  --trusted-proxies LIST  comma-separated addresses/CIDRs whose X-AppEngine-* and",
        "                          X-Forwarded-* headers are believed (default: everyone on",
        "                          the platform, i.e. when GAE_ENV is set; nobody elsewhere)",
        "  --temp-dir DIR          where to make the runtime's own working directory (the app",
        "                          unpacked, JSPs compiled), removed at exit",
        "  --login-url TEMPLATE    where anonymous requests to paths web.xml protects are",
        "                          redirected; {continue} is replaced by the encoded URL",
        "                          to return to (default /_ah/login?continue={continue})",
        "  --logout-url TEMPLATE   the Users API's logout URL (default",
        "                          /_ah/logout?continue={continue})",
        "  --development           development: the app sees runtime.environment=Development,",
        "                          text logs, loopback clients trusted (unless",
        "                          --trusted-proxies) and shown stack traces, GET /_ah/dev",
        "                          status page for loopback clients, and a login page at",
        "                          /_ah/login picks the signed-in user",
        "  --watch                 with --development: redeploy in this JVM when classes,",
        "                          jars, web.xml or appengine-web.xml change (exit code 3",
        "                          when a change needs a new JVM)",
        "  --ee ee8|ee10|ee11      EE version, overriding <runtime> and appengine.use.EE*",
        "  --classpath PATHS       class directories and jars after WEB-INF's own, separated",
        "                          by '"
            + File.pathSeparator
            + "' (an app served from its sources)",
        "  --parent-pid PID        stop (draining) when process PID ends",
        "  --log-format F          json (Cloud Logging's structured JSON), text, or auto:",
        "                          text on a terminal, else json (default auto; also",
        "                          -D"
            + RuntimeLogs.FORMAT_PROPERTY
            + " or $"
            + RuntimeLogs.FORMAT_VARIABLE
            + ")",
        "  --request-log on|off    one log line per request (default: on with --development",
        "                          or on a terminal, else off: the platform's front end",
        "                          logs requests)",
        "  --shutdown-grace D      on SIGTERM/SIGINT, how long requests in flight may",
        "                          finish before they are ended (default 10s; e.g. 500ms,",
        "                          30s, 1m; also $" + LaunchOptions.SHUTDOWN_GRACE_VARIABLE + ")",
        "  --sessions-jdbc-url URL sessions shared by every instance, in PostgreSQL:",
        "                          jdbc:postgresql://HOST:PORT/DB?user=U&password=P (also",
        "                          $"
            + LaunchOptions.SESSIONS_JDBC_URL_VARIABLE
            + "; default: in memory)",
        "  --max-concurrent-requests N",
        "                          requests handled at once (default: the descriptor's",
        "                          automatic-scaling/max-concurrent-requests, else one per",
        "                          8 MiB of heap, 8 to 1000)",
        "  --max-queued-requests N requests that may wait for a turn beyond those (default:",
        "                          as many); more get 503 with Retry-After at once",
        "  --queue-timeout D       how long a request may wait for a turn before its 503",
        "                          (default 1s; 0: no waiting, 503 at once)",
        "  --max-war-size SIZE     a .war may unpack to at most this many bytes (default",
        "                          2g; k, m, g suffixes)",
        "  --max-war-entries N     a .war may have at most N entries (default 100000)",
        "  --request-body-timeout D",
        "                          how long a request body may take to arrive, plus 1s per",
        "                          64 KiB received; slower bodies get 408 (default 30s; 0: no",
        "                          bound)",
        "  --api-host HOST:PORT    the App Engine API host of an app with <app-engine-apis>",
        "                          (default: $API_HOST and $API_PORT, else",
        "                          $LOCAL_API_HOSTPORT, else on App Engine standard",
        "                          appengine.googleapis.internal:10001, else with",
        "                          --development a local API host of Google's local services)",
        "  --api-data DIR          with --development: where the local API host keeps the",
        "                          Datastore and Blobstore (default: a folder per app under",
        "                          $XDG_DATA_HOME/aerun/api-data, else ~/.local/share/...)",
        "  --api-data-clear        with --development: delete that data before starting",
        "  -h, --help              print this help",
        "",
        "Legacy RPC mode (a front server buffers each request and runs it on the runtime",
        "over gRPC):",
        "  --rpc-transport inprocess|tcp|unix",
        "                          how the front end and the runtime talk in one process",
        "                          (default inprocess; tcp = 127.0.0.1, ephemeral port;",
        "                          unix = a socket in the temp dir, Linux only)",
        "  --role all|front|runtime",
        "                          run both halves (default), or one of a two-process split:",
        "  --rpc-listen ADDR       --role runtime: serve gRPC at tcp:HOST:PORT or unix:PATH",
        "                          (port 0 = any free; the start line says which); this",
        "                          role opens no HTTP port, --port and --address are ignored",
        "  --rpc-target ADDR       --role front: the runtime's tcp:HOST:PORT or unix:PATH;",
        "                          the app is optional here (its descriptor's appengine.*",
        "                          properties are read if given)",
        "  The gRPC link is plaintext and unauthenticated: keep it on loopback or a private",
        "  network. The front end applies the trust policy (--trusted-proxies).",
        "",
        "The app may also be named by $" + LaunchOptions.APP_VARIABLE + ".",
        "-Dappengine.use.HttpConnector=true (or any appengine.* property) overrides the",
        "descriptor's <system-properties>. -Dappengine.use.virtualthreads=true runs requests",
        "on virtual threads (Java 21 and later), still within --max-concurrent-requests.",
        "",
        "Environment: " + String.join(", ", LaunchOptions.PLATFORM_VARIABLES),
        "");
  }

  private LaunchUsage() {}
}
