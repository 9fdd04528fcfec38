package dev.aerun.sample;

import java.io.IOException;
import javax.servlet.FilterChain;
import javax.servlet.ServletException;
import javax.servlet.annotation.WebFilter;
import javax.servlet.http.HttpFilter;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/** Marks every response, to show annotated filters run. */
@WebFilter(urlPatterns = "/*", asyncSupported = true)
public class HeaderFilter extends HttpFilter {
  @Override
  protected void doFilter(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    response.setHeader("X-Sample-Filter", "EE8");
    chain.doFilter(request, response);
  }
}
