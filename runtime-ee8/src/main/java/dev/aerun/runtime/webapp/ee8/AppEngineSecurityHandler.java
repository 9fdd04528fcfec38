package dev.aerun.runtime.webapp.ee8;

import dev.aerun.runtime.security.AppEngineLoginService;
import dev.aerun.runtime.security.AppEngineUsers;
import dev.aerun.runtime.security.LoginUrls;
import java.io.IOException;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.eclipse.jetty.ee8.nested.Authentication;
import org.eclipse.jetty.ee8.nested.Request;
import org.eclipse.jetty.ee8.nested.Response;
import org.eclipse.jetty.ee8.security.ConstraintSecurityHandler;
import org.eclipse.jetty.ee8.security.RoleInfo;
import org.eclipse.jetty.ee8.security.ServerAuthException;
import org.eclipse.jetty.ee8.security.UserAuthentication;
import org.eclipse.jetty.ee8.security.UserDataConstraint;
import org.eclipse.jetty.ee8.security.authentication.DeferredAuthentication;
import org.eclipse.jetty.ee8.security.authentication.LoginAuthenticator;

/**
 * The servlet security of an EE8 webapp with App Engine's login (see {@link
 * dev.aerun.runtime.security}), installed only when {@code web.xml} has constraints that need a
 * user or a {@code <login-config>}; otherwise it is Jetty's own, untouched (but for a transport
 * guarantee's redirect, which goes to {@code https} on the default port). EE8 has its own
 * authenticator types; the decisions are the core package's.
 */
final class AppEngineSecurityHandler extends ConstraintSecurityHandler {
  private final LoginUrls urls;
  private boolean installed;

  AppEngineSecurityHandler(LoginUrls urls) {
    this.urls = urls;
  }

  @Override
  protected void doStart() throws Exception {
    boolean needsUser =
        getConstraintMappings().stream()
            .anyMatch(
                m ->
                    m.getConstraint() != null
                        && m.getConstraint().getAuthenticate()
                        && !m.getConstraint().isForbidden());
    if (needsUser || getAuthMethod() != null || getRealmName() != null) {
      // Any <login-config> method deploys: the platform ignores it, and so does this authenticator.
      setLoginService(new AppEngineLoginService());
      setAuthenticator(new Authenticator(urls));
      // "*" stands for every declared role: declare "*" and "admin", so "*" means any user.
      addRole(AppEngineUsers.ANY_USER_ROLE);
      addRole(AppEngineUsers.ADMIN_ROLE);
      installed = true;
    }
    super.doStart();
  }

  @Override
  protected boolean isAuthMandatory(Request request, Response response, Object constraintInfo) {
    return super.isAuthMandatory(request, response, constraintInfo)
        && !(installed && AppEngineUsers.isPlatformCaller(request.getCoreRequest()));
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
