package dev.aerun.main;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Handling SIGTERM and SIGINT ourselves, so that a shutdown drains while the JVM still runs
 * normally (logging works, and the exit code is ours), rather than in a shutdown hook racing the
 * JVM's own.
 *
 * <p>Uses {@code sun.misc.Signal} (module {@code jdk.unsupported}, present on the JDKs this runtime
 * supports) by reflection, so that nothing breaks to compile or run where it is missing: {@link
 * #handle} then says so and the caller keeps its shutdown hook.
 */
final class Signals {
  private static final Logger log = Logger.getLogger(Signals.class.getName());

  /** The signals a platform or a terminal sends to stop a process. */
  static final List<String> STOP_SIGNALS = List.of("TERM", "INT");

  private Signals() {}

  /**
   * Makes {@code handler} receive each of {@code names} (e.g. {@code TERM}) instead of the JVM's
   * default action, on a thread of the JVM's signal dispatcher: the handler must return quickly.
   *
   * @return false if this JVM does not let signals be handled; nothing was changed then
   */
  static boolean handle(List<String> names, Consumer<String> handler) {
    try {
      Class<?> signalClass = Class.forName("sun.misc.Signal");
      Class<?> handlerClass = Class.forName("sun.misc.SignalHandler");
      Method getName = signalClass.getMethod("getName");
      InvocationHandler dispatch =
          (proxy, method, args) -> {
            switch (method.getName()) {
              case "handle" -> handler.accept((String) getName.invoke(args[0]));
              case "hashCode" -> {
                return System.identityHashCode(proxy);
              }
              case "equals" -> {
                return proxy == args[0];
              }
              case "toString" -> {
                return "aerun signal handler";
              }
              default -> {}
            }
            return null;
          };
      Object proxy =
          Proxy.newProxyInstance(
              Signals.class.getClassLoader(), new Class<?>[] {handlerClass}, dispatch);
      Method install = signalClass.getMethod("handle", signalClass, handlerClass);
      for (String name : names) {
        Object signal = signalClass.getConstructor(String.class).newInstance(name);
        install.invoke(null, signal, proxy);
      }
      return true;
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      log.log(
          Level.INFO,
          "signals cannot be handled on this JVM ("
              + e
              + "); a shutdown stops the runtime without draining",
          e);
      return false;
    }
  }
}
