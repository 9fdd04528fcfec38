package dev.aerun.runtime.webapp.ee8;

import dev.aerun.runtime.security.AccessCheck;
import dev.aerun.runtime.security.AppEngineLoginService;
import dev.aerun.runtime.security.AppEngineUsers;
import dev.aerun.runtime.security.LoginUrls;
import dev.aerun.runtime.security.PathConstraints;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.eclipse.jetty.ee8.nested.Authentication;
import org.eclipse.jetty.ee8.nested.Request;
import org.eclipse.jetty.ee8.nested.Response;
import org.eclipse.jetty.ee8.nested.ServletConstraint;
import org.eclipse.jetty.ee8.security.ConstraintMapping;
import org.eclipse.jetty.ee8.security.ConstraintSecurityHandler;
import org.eclipse.jetty.ee8.security.RoleInfo;
import org.eclipse.jetty.ee8.security.ServerAuthException;
import org.eclipse.jetty.ee8.security.UserAuthentication;
import org.eclipse.jetty.ee8.security.UserDataConstraint;
import org.eclipse.jetty.ee8.security.authentication.DeferredAuthentication;
import org.eclipse.jetty.ee8.security.authentication.LoginAuthenticator;
import org.eclipse.jetty.security.Constraint;

/**
 * The servlet security of an EE8 webapp with App Engine's login (see {@link
 * dev.aerun.runtime.security}), installed on every webapp as the platform does: the signed-in user
 * is the app's {@code getUserPrincipal()} and {@code getRemoteUser()} whether or not {@code
 * web.xml} protects anything. The constraints apply as on App Engine ({@link PathConstraints}: to
 * every method of their paths; less for platform callers and the developer: {@link
 * PathConstraints.Caller}), and a transport guarantee's redirect goes to {@code https} on the
 * default port. EE8 has its own authenticator and constraint types; the decisions are the core
 * package's.
 */
final class AppEngineSecurityHandler extends ConstraintSecurityHandler {
  private final LoginUrls urls;
  private volatile PathConstraints constraints = PathConstraints.none();

  /** What {@link #prepareConstraintInfo} answers for each constraint, made once. */
  private final Map<Constraint, RoleInfo> roleInfos = new ConcurrentHashMap<>();

  AppEngineSecurityHandler(LoginUrls urls) {
    this.urls = urls;
  }

  @Override
  protected void doStart() throws Exception {
    // Any <login-config> method deploys: the platform ignores it, and so does this authenticator.
    setLoginService(new AppEngineLoginService());
    setAuthenticator(new Authenticator(urls));
    // "*" stands for every declared role: declare "*" and "admin", so "*" means any user.
    addRole(AppEngineUsers.ANY_USER_ROLE);
    addRole(AppEngineUsers.ADMIN_ROLE);
    constraints = PathConstraints.of(declared(getConstraintMappings()));
    super.doStart();
  }

  /** The constraints (as the servlets get them) for what is served around the app. */
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

  @Override
  protected RoleInfo prepareConstraintInfo(String pathInContext, Request request) {
    Constraint constraint = constraints.forRequest(pathInContext, request.getCoreRequest());
    return constraint == null ? null : roleInfos.computeIfAbsent(constraint, c -> roleInfo(c));
  }

  /** EE8's form of {@code constraint}. */
  private static RoleInfo roleInfo(Constraint constraint) {
    RoleInfo info = new RoleInfo();
    if (constraint.getAuthorization() == Constraint.Authorization.FORBIDDEN) {
      info.setForbidden(true);
      return info;
    }
    info.setUserDataConstraint(
        constraint.getTransport() == Constraint.Transport.SECURE
            ? UserDataConstraint.Confidential
            : UserDataConstraint.None);
    switch (constraint.getAuthorization()) {
      case ANY_USER -> {
        info.setChecked(true);
        info.setAnyAuth(true);
      }
      case KNOWN_ROLE -> {
        info.setChecked(true);
        info.setAnyRole(true);
        info.addRole(AppEngineUsers.ANY_USER_ROLE);
      }
      case SPECIFIC_ROLE -> {
        info.setChecked(true);
        constraint.getRoles().forEach(info::addRole);
      }
      default -> {}
    }
    return info;
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
                    core(m.getConstraint())))
        .toList();
  }

  /** {@code constraint} in Jetty's core terms, as EE10 and later declare it. */
  private static Constraint core(ServletConstraint constraint) {
    if (constraint == null) {
      return null;
    }
    Constraint.Transport transport =
        constraint.getDataConstraint() > ServletConstraint.DC_NONE
            ? Constraint.Transport.SECURE
            : Constraint.Transport.ANY;
    String[] roles = constraint.getRoles() == null ? new String[0] : constraint.getRoles();
    Constraint.Authorization authorization;
    if (!constraint.getAuthenticate()) {
      authorization = Constraint.Authorization.ALLOWED;
    } else if (constraint.isAnyAuth()) {
      authorization = Constraint.Authorization.ANY_USER;
    } else if (constraint.isAnyRole()) {
      authorization = Constraint.Authorization.KNOWN_ROLE;
    } else if (roles.length == 0) {
      authorization = Constraint.Authorization.FORBIDDEN;
    } else {
      authorization = Constraint.Authorization.SPECIFIC_ROLE;
    }
    return Constraint.from(
        constraint.getName(),
        transport,
        authorization,
        authorization == Constraint.Authorization.SPECIFIC_ROLE
            ? Set.copyOf(Arrays.asList(roles))
            : Set.of());
  }

  @Override
  protected boolean checkUserDataPermissions(
      String pathInContext, Request request, Response response, RoleInfo roleInfo)
      throws IOException {
    if (roleInfo != null
        && !roleInfo.isForbidden()
        && !request.isSecure()
        && (roleInfo.getUserDataConstraint() == UserDataConstraint.Confidential
            || roleInfo.getUserDataConstraint() == UserDataConstraint.Integral)) {
      response.setContentLength(0);
      response.sendRedirect(AppEngineUsers.secureUrl(request.getCoreRequest().getHttpURI()));
      request.setHandled(true);
      return false;
    }
    return super.checkUserDataPermissions(pathInContext, request, response, roleInfo);
  }

  /** The request's user, or a redirect to the login URL for an anonymous one. */
  private static final class Authenticator extends LoginAuthenticator {
    private final LoginUrls urls;

    Authenticator(LoginUrls urls) {
      this.urls = urls;
    }

    @Override
    public String getAuthMethod() {
      return AppEngineUsers.AUTH_TYPE;
    }

    @Override
    public Authentication validateRequest(
        ServletRequest servletRequest, ServletResponse servletResponse, boolean mandatory)
        throws ServerAuthException {
      if (!mandatory) {
        return new DeferredAuthentication(this);
      }
      HttpServletResponse response = (HttpServletResponse) servletResponse;
      AppEngineUsers.Login login =
          AppEngineUsers.login(
              Request.getBaseRequest(servletRequest).getCoreRequest(),
              urls,
              DeferredAuthentication.isDeferred(response));
      if (login.user() != null) {
        return new UserAuthentication(getAuthMethod(), login.user());
      }
      if (login.redirect() == null) {
        return Authentication.UNAUTHENTICATED;
      }
      try {
        response.sendRedirect(login.redirect());
      } catch (IOException e) {
        throw new ServerAuthException(e);
      }
      return Authentication.SEND_CONTINUE;
    }

    @Override
    public boolean secureResponse(
        ServletRequest request,
        ServletResponse response,
        boolean mandatory,
        Authentication.User validatedUser) {
      return true;
    }

    /** No session of its own: every request carries its user. */
    @Override
    protected javax.servlet.http.HttpSession renewSession(
        HttpServletRequest request, HttpServletResponse response) {
      return null;
    }
  }
}
