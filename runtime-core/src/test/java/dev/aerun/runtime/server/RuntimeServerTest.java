package dev.aerun.runtime.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.util.component.AbstractLifeCycle;
import org.junit.jupiter.api.Test;

class RuntimeServerTest {
  private final List<String> events = new CopyOnWriteArrayList<>();

  /** A part that records its start and stop, and fails to start if told to. */
  private class Part extends AbstractLifeCycle {
    final String name;
    final boolean fails;

    Part(String name, boolean fails) {
      this.name = name;
      this.fails = fails;
    }

    @Override
    protected void doStart() {
      events.add("start " + name);
      if (fails) {
        throw new IllegalStateException(name + " failed");
      }
    }

    @Override
    protected void doStop() {
      events.add("stop " + name);
    }
  }

  private final class Door extends Part implements RuntimeServer.Entrance {
    Duration drainedWith;

    Door(boolean fails) {
      super("door", fails);
    }

    @Override
    public String endpoint() {
      return "door:1";
    }

    @Override
    public boolean drain(Duration grace) {
      events.add("drain door");
      drainedWith = grace;
      return true;
    }
  }

  private final class Server extends RuntimeServer {
    final Door door;

    Server(boolean appFails, boolean doorFails) {
      addPart(new Part("app", appFails));
      addPart(new Part("service", false));
      door = new Door(doorFails);
      addEntrance(door);
    }
  }

  @Test
  void start_startsThePartsInOrder_stop_inReverse() throws Exception {
    Server server = new Server(false, false);

    server.start();
    server.stop();

    assertEquals(
        List.of(
            "start app", "start service", "start door", "stop door", "stop service", "stop app"),
        events);
  }

  @Test
  void start_aPartFails_thePartsStartedAndTheFailedOneAreStopped() {
    Server server = new Server(false, true);

    IllegalStateException failure = assertThrows(IllegalStateException.class, server::start);

    assertEquals("door failed", failure.getMessage());
    assertEquals(
        List.of(
            "start app", "start service", "start door", "stop service", "stop app", "stop door"),
        events);
    assertTrue(server.isFailed());
  }

  @Test
  void start_theFirstPartFails_theEntranceNeverStarts() {
    Server server = new Server(true, false);

    assertThrows(IllegalStateException.class, server::start);

    assertEquals(List.of("start app", "stop app"), events);
  }

  @Test
  void drain_goesToTheEntrance() throws Exception {
    Server server = new Server(false, false);
    server.start();

    assertTrue(server.drain(Duration.ofSeconds(3)));

    assertEquals(Duration.ofSeconds(3), server.door.drainedWith);
    server.stop();
  }

  @Test
  void drain_beforeStart_isDoneAtOnce() throws Exception {
    Server server = new Server(false, false);

    assertTrue(server.drain(Duration.ofSeconds(3)));

    assertFalse(events.contains("drain door"));
  }

  @Test
  void join_returnsOnceStopped() throws Exception {
    Server server = new Server(false, false);
    server.start();
    CompletableFuture<Void> joined =
        CompletableFuture.runAsync(
            () -> {
              try {
                server.join();
              } catch (InterruptedException e) {
                throw new IllegalStateException(e);
              }
            });
    Thread.sleep(100);
    assertFalse(joined.isDone());

    server.stop();

    assertSame(null, joined.get(10, TimeUnit.SECONDS));
  }

  @Test
  void join_notStarted_returnsAtOnce() throws Exception {
    new Server(false, false).join();
  }

  @Test
  void aServerWithoutAnEntrance_doesNotStart() {
    RuntimeServer server = new RuntimeServer() {};

    assertThrows(IllegalStateException.class, server::start);
  }
}
