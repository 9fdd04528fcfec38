package dev.aerun.runtime.webapp.ee10;

import dev.aerun.runtime.security.AppEngineAuthenticator;
import dev.aerun.runtime.security.AppEngineLoginService;
import dev.aerun.runtime.security.AppEngineUsers;
import dev.aerun.runtime.security.LoginUrls;
import org.eclipse.jetty.ee10.servlet.security.ConstraintSecurityHandler;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.security.Constraint;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The servlet security of an EE10 webapp with App Engine's login (see {@link
 * dev.aerun.runtime.security}), installed only when {@code web.xml} has constraints that need a
 * user or a {@code <login-config>}; otherwise it is Jetty's own, untouched (but for a transport
 * guarantee's redirect, which goes to {@code https} on the default port).
 */
final class AppEngineSecurityHandler extends ConstraintSecurityHandler {
  private final LoginUrls urls;

  AppEngineSecurityHandler(LoginUrls urls) {
    this.urls = urls;
  }

  @Override
  protected void doStart() throws Exception {
    boolean needsUser =
        getConstraintMappings().stream().anyMatch(m -> AppEngineUsers.needsUser(m.getConstraint()));
    if (needsUser || getAuthenticationType() != null || getRealmName() != null) {
      // Any <login-config> method deploys: the platform ignores it, and so does this authenticator.
      setLoginService(new AppEngineLoginService());
      setAuthenticator(new AppEngineAuthenticator(urls));
      // "*" is a known role for the servlet spec: make it and "admin" known, so "*" means any user.
      addKnownRole(AppEngineUsers.ANY_USER_ROLE);
      addKnownRole(AppEngineUsers.ADMIN_ROLE);
    }
    super.doStart();
  }

  @Override
  protected Constraint getConstraint(String pathInContext, Request request) {
    return AppEngineUsers.forRequest(super.getConstraint(pathInContext, request), request);
  }

  @Override
  protected void redirectToSecure(Request request, Response response, Callback callback) {
    Response.sendRedirect(
        request,
        response,
        callback,
        HttpStatus.FOUND_302,
        AppEngineUsers.secureUrl(request.getHttpURI()),
        true);
  }
}
