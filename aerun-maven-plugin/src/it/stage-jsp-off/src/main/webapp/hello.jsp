<%@ page contentType="text/plain;charset=UTF-8" %>
<%@ taglib prefix="c" uri="jakarta.tags.core" %>
<c:out value="Hello from a JSP, ${1 + 1}"/>
