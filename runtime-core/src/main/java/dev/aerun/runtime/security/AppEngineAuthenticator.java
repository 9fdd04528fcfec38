package dev.aerun.runtime.security;

import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.security.AuthenticationState;
import org.eclipse.jetty.security.authentication.LoginAuthenticator;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The authenticator of App Engine apps on Jetty's core security (the EE10 and later servlet
 * environments): a signed-in user is authenticated; an anonymous request to a protected path is
 * redirected (302) to the login URL with a {@code continue} parameter. Whether the user has the
 * role is the security handler's question: one without it gets 403.
 */
public final class AppEngineAuthenticator extends LoginAuthenticator {
  private final LoginUrls urls;

  public AppEngineAuthenticator(LoginUrls urls) {
    this.urls = urls;
  }

  @Override
  public String getAuthenticationType() {
    return AppEngineUsers.AUTH_TYPE;
  }

  @Override
  public AuthenticationState validateRequest(
      Request request, Response response, Callback callback) {
    AppEngineUsers.Login login =
        AppEngineUsers.login(request, urls, AuthenticationState.Deferred.isDeferred(response));
    if (login.user() != null) {
      return new UserAuthenticationSucceeded(getAuthenticationType(), login.user());
    }
    if (login.redirect() == null) {
      return null;
    }
    Response.sendRedirect(
        request, response, callback, HttpStatus.FOUND_302, login.redirect(), true);
    return AuthenticationState.CHALLENGE;
  }
}
