package dev.aerun.sample;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

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
