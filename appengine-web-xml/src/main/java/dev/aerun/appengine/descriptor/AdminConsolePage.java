package dev.aerun.appengine.descriptor;

/**
 * {@code <admin-console><page name url>}.
 *
 * @param name the page title
 * @param url the page URL
 */
public record AdminConsolePage(String name, String url) {}
