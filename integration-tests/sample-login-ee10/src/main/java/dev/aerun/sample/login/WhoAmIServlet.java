package dev.aerun.sample.login;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.security.Principal;

/** Says who the servlet API thinks the user is, one {@code name=value} per line. */
public class WhoAmIServlet extends HttpServlet {
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
                + "\n");
  }
}
