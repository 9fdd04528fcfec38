<%-- A JSP keeps its implicit session (session="true"): it must work with sessions disabled. --%>
jsp session attribute: <%= session.getAttribute("missing") %>
