package dev.aerun.sample.login;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.security.Principal;
import java.util.Collections;
import java.util.Locale;

/** Says who the servlet API thinks the user is, one {@code name=value} per line. */
public class WhoAmIServlet extends HttpServlet {
  /** The names of the {@code X-Google-Internal-*} headers the app sees, comma-separated. */
  private static String internalHeaders(HttpServletRequest request) {
    StringBuilder names = new StringBuilder();
    for (String name : Collections.list(request.getHeaderNames())) {
      if (name.toLowerCase(Locale.ROOT).startsWith("x-google-internal-")) {
        names.append(names.length() == 0 ? "" : ",").append(name);
      }
    }
    return names.toString();
  }

  /** Every method answers the same: a constraint, not the servlet, decides who gets here. */
  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    Principal principal = request.getUserPrincipal();
    response.setContentType("text/plain;charset=utf-8");
    response
        .getWriter()
        .print(
            "method="
                + request.getMethod()
                + "\npath="
                + request.getRequestURI()
                + "\nremoteUser="
                + request.getRemoteUser()
                + "\nprincipal="
                + (principal == null ? null : principal.getName())
                + "\nadmin="
                + request.isUserInRole("admin")
                + "\nauthType="
                + request.getAuthType()
                + "\nsecure="
                + request.isSecure()
                + "\nscheme="
                + request.getScheme()
                + "\nurl="
                + request.getRequestURL()
                + "\nremoteAddr="
                + request.getRemoteAddr()
                + "\nemailHeader="
                + request.getHeader("X-AppEngine-User-Email")
                + "\nqueue="
                + request.getHeader("X-AppEngine-QueueName")
                + "\ninternalHeaders="
                + internalHeaders(request)
                + "\n");
  }
}
