package dev.aerun.sample.apis;

import com.google.appengine.api.ThreadManager;
import com.google.appengine.api.datastore.AsyncDatastoreService;
import com.google.appengine.api.datastore.DatastoreService;
import com.google.appengine.api.datastore.DatastoreServiceFactory;
import com.google.appengine.api.datastore.Entity;
import com.google.appengine.api.datastore.EntityNotFoundException;
import com.google.appengine.api.datastore.FetchOptions;
import com.google.appengine.api.datastore.Key;
import com.google.appengine.api.datastore.KeyFactory;
import com.google.appengine.api.datastore.Query;
import com.google.appengine.api.datastore.Text;
import com.google.appengine.api.datastore.Transaction;
import com.google.appengine.api.mail.MailService;
import com.google.appengine.api.mail.MailServiceFactory;
import com.google.appengine.api.memcache.MemcacheService;
import com.google.appengine.api.memcache.MemcacheServiceFactory;
import com.google.appengine.api.taskqueue.Queue;
import com.google.appengine.api.taskqueue.QueueFactory;
import com.google.appengine.api.taskqueue.TaskHandle;
import com.google.appengine.api.taskqueue.TaskOptions;
import com.google.appengine.api.urlfetch.HTTPResponse;
import com.google.appengine.api.urlfetch.URLFetchServiceFactory;
import com.google.appengine.api.urlfetch.URLFetchServicePb;
import com.google.apphosting.api.ApiProxy;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Calls App Engine's bundled services the way apps do, one path per case, and prints what happened
 * as {@code name=value} lines (an exception as its class name and message).
 */
@WebServlet("/api/*")
public class ApiServlet extends HttpServlet {
  private static final String KIND = "Greeting";

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    response.setContentType("text/plain;charset=utf-8");
    PrintWriter out = response.getWriter();
    String what = request.getPathInfo() == null ? "" : request.getPathInfo();
    try {
      switch (what) {
        case "/put" -> {
          DatastoreService datastore = DatastoreServiceFactory.getDatastoreService();
          Entity entity = new Entity(KIND, request.getParameter("name"));
          entity.setProperty("value", request.getParameter("value"));
          entity.setProperty("group", "all");
          Key key = datastore.put(entity);
          out.println("put=" + KeyFactory.keyToString(key));
        }
        case "/get" -> {
          Entity entity =
              DatastoreServiceFactory.getDatastoreService()
                  .get(KeyFactory.createKey(KIND, request.getParameter("name")));
          out.println("value=" + entity.getProperty("value"));
        }
        case "/query" -> {
          Query query =
              new Query(KIND)
                  .setFilter(
                      new Query.FilterPredicate(
                          "value", Query.FilterOperator.EQUAL, request.getParameter("value")));
          int count =
              DatastoreServiceFactory.getDatastoreService()
                  .prepare(query)
                  .asList(FetchOptions.Builder.withDefaults())
                  .size();
          out.println("count=" + count);
        }
        case "/transaction" -> {
          DatastoreService datastore = DatastoreServiceFactory.getDatastoreService();
          Key key = KeyFactory.createKey("Counter", request.getParameter("name"));
          Transaction tx = datastore.beginTransaction();
          Entity counter;
          try {
            counter = datastore.get(tx, key);
          } catch (EntityNotFoundException e) {
            counter = new Entity(key);
            counter.setProperty("n", 0L);
          }
          counter.setProperty("n", (Long) counter.getProperty("n") + 1);
          datastore.put(tx, counter);
          tx.commit();
          out.println("counter=" + datastore.get(key).getProperty("n"));
        }
        case "/memcache" -> {
          MemcacheService memcache = MemcacheServiceFactory.getMemcacheService();
          memcache.put("greeting", "hello");
          memcache.put("n", 10L);
          out.println("get=" + memcache.get("greeting"));
          out.println("increment=" + memcache.increment("n", 5));
        }
        case "/task" -> {
          Queue queue = QueueFactory.getQueue(request.getParameter("queue"));
          TaskOptions task =
              TaskOptions.Builder.withUrl("/tasks/record")
                  .param("id", request.getParameter("id"))
                  .param("payload", "p-" + request.getParameter("id"));
          if (request.getParameter("fail") != null) {
            task.param("fail", request.getParameter("fail"));
          }
          TaskHandle handle = queue.add(task);
          out.println("added=" + handle.getName());
        }
        case "/deferred" -> {
          QueueFactory.getDefaultQueue()
              .add(TaskOptions.Builder.withPayload(new RecordTask(request.getParameter("id"))));
          out.println("deferred=added");
        }
        case "/seen" -> out.println("seen=" + Seen.TASKS.get(request.getParameter("id")));
        case "/typed" -> {
          // One entity with a value of each type the development console shows.
          Entity entity = new Entity("Typed", request.getParameter("name"));
          entity.setProperty("text", "plain");
          entity.setProperty("count", 42L);
          entity.setProperty("ratio", 2.5);
          entity.setProperty("flag", true);
          entity.setProperty("when", Date.from(Instant.parse("2024-05-01T12:00:00Z")));
          entity.setProperty("notes", new Text("a long text"));
          entity.setProperty("markup", request.getParameter("markup"));
          entity.setProperty("tags", List.of("red", "green"));
          entity.setUnindexedProperty("hidden", "not indexed");
          DatastoreServiceFactory.getDatastoreService().put(entity);
          out.println("typed=" + KeyFactory.keyToString(entity.getKey()));
        }
        case "/property" -> {
          Object value =
              DatastoreServiceFactory.getDatastoreService()
                  .get(
                      KeyFactory.createKey(
                          request.getParameter("kind"), request.getParameter("name")))
                  .getProperty(request.getParameter("property"));
          out.println("value=" + (value instanceof Text text ? text.getValue() : value));
          out.println("type=" + (value == null ? "null" : value.getClass().getSimpleName()));
        }
        case "/exists" -> {
          try {
            DatastoreServiceFactory.getDatastoreService()
                .get(
                    KeyFactory.createKey(
                        request.getParameter("kind"), request.getParameter("name")));
            out.println("exists=true");
          } catch (EntityNotFoundException e) {
            out.println("exists=false");
          }
        }
        case "/mail" -> {
          MailService.Message message =
              new MailService.Message(
                  "app@apis-sample.example",
                  "someone@example.com",
                  request.getParameter("subject"),
                  "text of " + request.getParameter("subject"));
          message.setHtmlBody("<p>html of " + request.getParameter("subject") + "</p>");
          MailServiceFactory.getMailService().send(message);
          out.println("mail=sent");
        }
        case "/urlfetch" -> {
          HTTPResponse fetched =
              URLFetchServiceFactory.getURLFetchService()
                  .fetch(new URL(request.getParameter("url")));
          out.println("status=" + fetched.getResponseCode());
          out.println("body=" + new String(fetched.getContent(), StandardCharsets.UTF_8));
        }
        case "/deadline" -> {
          // The fetch may take 30 s; the call itself is given half a second.
          byte[] fetch =
              URLFetchServicePb.URLFetchRequest.newBuilder()
                  .setUrl(request.getParameter("url"))
                  .setMethod(URLFetchServicePb.URLFetchRequest.RequestMethod.GET)
                  .setDeadline(30)
                  .build()
                  .toByteArray();
          ApiProxy.ApiConfig config = new ApiProxy.ApiConfig();
          config.setDeadlineInSeconds(0.5);
          long start = System.nanoTime();
          try {
            ApiProxy.makeSyncCall("urlfetch", "Fetch", fetch, config);
            out.println("failure=none");
          } finally {
            out.println("tookMs=" + (System.nanoTime() - start) / 1_000_000);
          }
        }
        case "/unknown-service" -> {
          ApiProxy.makeSyncCall("no_such_service", "Call", new byte[0]);
          out.println("failure=none");
        }
        case "/async" -> {
          AsyncDatastoreService datastore = DatastoreServiceFactory.getAsyncDatastoreService();
          Entity entity = new Entity(KIND, "async-" + request.getParameter("name"));
          entity.setProperty("value", "async");
          Future<Key> put = datastore.put(entity);
          Future<Entity> got = datastore.get(put.get());
          out.println("async=" + got.get().getProperty("value"));
        }
        case "/thread" -> {
          AtomicReference<String> seen = new AtomicReference<>();
          Thread thread =
              ThreadManager.createThreadForCurrentRequest(
                  () -> {
                    MemcacheService memcache = MemcacheServiceFactory.getMemcacheService();
                    memcache.put("from-thread", "yes");
                    seen.set(
                        memcache.get("from-thread")
                            + " remaining="
                            + (ApiProxy.getCurrentEnvironment().getRemainingMillis() > 0));
                  });
          thread.start();
          thread.join();
          out.println("thread=" + seen.get());
        }
        case "/late" -> {
          // A request thread that calls after its request has ended.
          String id = request.getParameter("id");
          ThreadManager.createThreadForCurrentRequest(
                  () -> {
                    try {
                      Thread.sleep(500);
                      ApiProxy.makeSyncCall("memcache", "Get", new byte[0]);
                      Seen.TASKS.put(id, "no failure");
                    } catch (Exception e) {
                      Seen.TASKS.put(id, e.getClass().getName() + ": " + e.getMessage());
                    }
                  })
              .start();
          out.println("late=started");
        }
        default -> {
          response.setStatus(404);
          out.println("unknown " + what);
        }
      }
    } catch (Exception e) {
      out.println("failure=" + e.getClass().getName() + ": " + e.getMessage());
      for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
        out.println("cause=" + cause.getClass().getName() + ": " + cause.getMessage());
      }
    }
  }
}
