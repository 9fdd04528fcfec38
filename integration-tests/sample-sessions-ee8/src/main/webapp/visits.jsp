<%-- The implicit session object of a JSP. --%>
<% Integer n = (Integer) session.getAttribute("visits"); %>
visits=<%= n == null ? 0 : n %>
