package dev.aerun.sample;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.PrintWriter;

/**
 * Lists the cookies the container parsed from the request ({@code name=value} per line) and sets
 * several: through the servlet API, with attributes, and as a raw {@code Set-Cookie} header. No
 * cookie has a positive max-age: its {@code Expires} would depend on the clock.
 */
@WebServlet("/cookies")
public class CookieServlet extends HttpServlet {
  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    Cookie plain = new Cookie("plain", "v1");
    response.addCookie(plain);
    Cookie scoped = new Cookie("scoped", "v2");
    scoped.setPath("/cookies");
    scoped.setHttpOnly(true);
    scoped.setSecure(true);
    response.addCookie(scoped);
    Cookie expired = new Cookie("expired", "");
    expired.setMaxAge(0);
    response.addCookie(expired);
    response.addHeader("Set-Cookie", "raw=r1; Path=/; SameSite=Lax");

    response.setContentType("text/plain;charset=utf-8");
    PrintWriter out = response.getWriter();
    Cookie[] cookies = request.getCookies();
    if (cookies != null) {
      for (Cookie cookie : cookies) {
        out.println(cookie.getName() + "=" + cookie.getValue());
      }
    }
  }
}
