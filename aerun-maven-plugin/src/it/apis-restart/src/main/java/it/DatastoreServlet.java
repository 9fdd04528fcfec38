package it;

import com.google.appengine.api.datastore.DatastoreServiceFactory;
import com.google.appengine.api.datastore.Entity;
import com.google.appengine.api.datastore.EntityNotFoundException;
import com.google.appengine.api.datastore.KeyFactory;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** POST stores {@code value} under {@code name}; GET reads it back ("missing" if there is none). */
@WebServlet("/entity")
public class DatastoreServlet extends HttpServlet {
  @Override
  protected void doPost(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    Entity entity = new Entity("Note", request.getParameter("name"));
    entity.setProperty("value", request.getParameter("value"));
    DatastoreServiceFactory.getDatastoreService().put(entity);
    response.getWriter().print("stored");
  }

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    try {
      Entity entity =
          DatastoreServiceFactory.getDatastoreService()
              .get(KeyFactory.createKey("Note", request.getParameter("name")));
      response.getWriter().print(entity.getProperty("value"));
    } catch (EntityNotFoundException e) {
      response.getWriter().print("missing");
    }
  }
}
