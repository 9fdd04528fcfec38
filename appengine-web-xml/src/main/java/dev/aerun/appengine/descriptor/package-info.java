/**
 * The {@code WEB-INF/appengine-web.xml} descriptor: an immutable model ({@link
 * dev.aerun.appengine.descriptor.AppEngineWebXml}), a strict parser with located errors ({@link
 * dev.aerun.appengine.descriptor.AppEngineWebXmlParser}, {@link
 * dev.aerun.appengine.descriptor.DescriptorException}), the expiration syntax ({@link
 * dev.aerun.appengine.descriptor.Expiration}) and the pure choice of runtime id, EE version and
 * serving mode ({@link dev.aerun.appengine.descriptor.RuntimeSelection}). JDK only, no Jetty.
 */
package dev.aerun.appengine.descriptor;
