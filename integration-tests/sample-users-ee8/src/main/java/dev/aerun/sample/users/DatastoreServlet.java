package dev.aerun.sample.users;

import com.google.appengine.api.datastore.DatastoreServiceFactory;
import com.google.appengine.api.datastore.KeyFactory;
import java.io.IOException;
import java.io.PrintWriter;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/** Calls the Datastore, a remote service, and prints how the call failed (every cause). */
public class DatastoreServlet extends HttpServlet {
  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    response.setContentType("text/plain;charset=utf-8");
    PrintWriter out = response.getWriter();
    try {
      DatastoreServiceFactory.getDatastoreService().get(KeyFactory.createKey("Greeting", 1));
      out.println("result=no failure");
    } catch (RuntimeException | com.google.appengine.api.datastore.EntityNotFoundException e) {
      for (Throwable cause = e; cause != null; cause = cause.getCause()) {
        out.println("failure=" + cause.getClass().getName() + ": " + cause.getMessage());
      }
    }
  }
}
