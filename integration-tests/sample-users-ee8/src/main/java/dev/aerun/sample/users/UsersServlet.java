package dev.aerun.sample.users;

import com.google.appengine.api.users.User;
import com.google.appengine.api.users.UserService;
import com.google.appengine.api.users.UserServiceFactory;
import com.google.apphosting.api.ApiProxy;
import java.io.IOException;
import java.io.PrintWriter;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * Greets the signed-in user or offers a sign-in link, through the servlet API and the App Engine
 * Users API; then lists what the request's {@code ApiProxy} environment says, one {@code
 * name=value} per line. The app's welcome file, as in Google's Users API sample.
 */
public class UsersServlet extends HttpServlet {
  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    UserService users = UserServiceFactory.getUserService();
    response.setContentType("text/plain;charset=utf-8");
    PrintWriter out = response.getWriter();
    String thisUrl = request.getRequestURI();
    // What Google's Users API sample greets with: the servlet API's view of the user, which needs
    // no security constraint in web.xml.
    out.println(
        "principal="
            + (request.getUserPrincipal() == null ? null : request.getUserPrincipal().getName()));
    out.println("remoteUser=" + request.getRemoteUser());
    if (users.isUserLoggedIn()) {
      User user = users.getCurrentUser();
      out.println("greeting=Hello, " + user.getNickname());
      out.println("email=" + user.getEmail());
      out.println("userId=" + user.getUserId());
      out.println("authDomain=" + user.getAuthDomain());
      out.println("admin=" + users.isUserAdmin());
      out.println("logout=" + users.createLogoutURL(thisUrl));
    } else {
      out.println("greeting=Please sign in");
      out.println("login=" + users.createLoginURL(thisUrl));
    }
    ApiProxy.Environment environment = ApiProxy.getCurrentEnvironment();
    out.println("appId=" + environment.getAppId());
    out.println("versionId=" + environment.getVersionId());
    out.println("moduleId=" + environment.getModuleId());
    long remaining = environment.getRemainingMillis();
    out.println("remainingPositive=" + (remaining > 0));
    out.println("remainingAtMost=" + remaining);
  }
}
