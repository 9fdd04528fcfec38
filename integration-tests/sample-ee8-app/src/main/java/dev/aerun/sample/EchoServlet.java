package dev.aerun.sample;

import java.io.IOException;
import javax.servlet.annotation.WebServlet;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/** Streams the request body back unchanged, with the request's content type. */
@WebServlet("/echo")
public class EchoServlet extends HttpServlet {
  @Override
  protected void doPost(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    String contentType = request.getContentType();
    response.setContentType(contentType != null ? contentType : "application/octet-stream");
    request.getInputStream().transferTo(response.getOutputStream());
  }

  @Override
  protected void doPut(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    doPost(request, response);
  }
}
