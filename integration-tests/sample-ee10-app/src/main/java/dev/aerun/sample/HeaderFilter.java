package dev.aerun.sample;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebFilter;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** Marks every response, to show annotated filters run. */
@WebFilter(urlPatterns = "/*", asyncSupported = true)
public class HeaderFilter extends HttpFilter {
  @Override
  protected void doFilter(
      HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    response.setHeader("X-Sample-Filter", "EE10");
    chain.doFilter(request, response);
  }
}
