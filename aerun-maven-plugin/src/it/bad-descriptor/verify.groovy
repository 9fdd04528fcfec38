def log = new File(basedir, 'build.log').getText('UTF-8')
assert log =~ /aerun:start: error: .*WEB-INF\/appengine-web\.xml:4:3: no-such-element: unknown element <no-such-element>/ : log
return true
