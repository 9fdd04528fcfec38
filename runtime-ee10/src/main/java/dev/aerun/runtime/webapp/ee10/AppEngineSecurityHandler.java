package dev.aerun.runtime.webapp.ee10;

import dev.aerun.runtime.security.AccessCheck;
import dev.aerun.runtime.security.AppEngineAuthenticator;
import dev.aerun.runtime.security.AppEngineLoginService;
import dev.aerun.runtime.security.AppEngineUsers;
import dev.aerun.runtime.security.LoginUrls;
import dev.aerun.runtime.security.PathConstraints;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.eclipse.jetty.ee10.servlet.security.ConstraintMapping;
import org.eclipse.jetty.ee10.servlet.security.ConstraintSecurityHandler;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.security.Constraint;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The servlet security of an EE10 webapp with App Engine's login (see {@link
 * dev.aerun.runtime.security}), installed on every webapp as the platform does: the signed-in user
 * is the app's {@code getUserPrincipal()} and {@code getRemoteUser()} whether or not {@code
 * web.xml} protects anything. The constraints apply as on App Engine ({@link PathConstraints}: to
 * every method of their paths; less for platform callers and the developer: {@link
 * PathConstraints.Caller}), and a transport guarantee's redirect goes to {@code https} on the
 * default port.
 */
final class AppEngineSecurityHandler extends ConstraintSecurityHandler {
  private final LoginUrls urls;
  private volatile PathConstraints constraints = PathConstraints.none();

  AppEngineSecurityHandler(LoginUrls urls) {
    this.urls = urls;
  }

  @Override
  protected void doStart() throws Exception {
    // Any <login-config> method deploys: the platform ignores it, and so does this authenticator.
    setLoginService(new AppEngineLoginService());
    setAuthenticator(new AppEngineAuthenticator(urls));
    // "*" is a known role for the servlet spec: make it and "admin" known, so "*" means any user.
    addKnownRole(AppEngineUsers.ANY_USER_ROLE);
    addKnownRole(AppEngineUsers.ADMIN_ROLE);
    constraints = PathConstraints.of(declared(getConstraintMappings()));
    super.doStart();
  }

  /** The constraints (as {@link #getConstraint} applies them) for what is served around the app. */
  AccessCheck accessCheck() {
    return new AccessCheck(constraints, urls);
  }

  @Override
  public void addConstraintMapping(ConstraintMapping mapping) {
    super.addConstraintMapping(mapping);
    if (isStarted()) { // a servlet registered while the app starts may bring its own
      constraints = PathConstraints.of(declared(getConstraintMappings()));
    }
  }

  @Override
  public void setConstraintMappings(List<ConstraintMapping> mappings, Set<String> roles) {
    super.setConstraintMappings(mappings, roles);
    if (isStarted()) {
      constraints = PathConstraints.of(declared(getConstraintMappings()));
    }
  }

  /** No method is left uncovered here (see {@link PathConstraints}): nothing to warn about. */
  @Override
  public boolean checkPathsWithUncoveredHttpMethods() {
    return false;
  }

  private static List<PathConstraints.Declared> declared(List<ConstraintMapping> mappings) {
    return mappings.stream()
        .map(
            m ->
                new PathConstraints.Declared(
                    m.getPathSpec(),
                    m.getMethod() == null ? Set.of() : Set.of(m.getMethod()),
                    m.getMethodOmissions() == null
                        ? Set.of()
                        : Set.copyOf(Arrays.asList(m.getMethodOmissions())),
                    m.getConstraint()))
        .toList();
  }

  @Override
  protected Constraint getConstraint(String pathInContext, Request request) {
    return constraints.forRequest(pathInContext, request);
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
