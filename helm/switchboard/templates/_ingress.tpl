{{/*
What the public Ingress (ingress.yaml) and the operator one (admin-ingress.yaml) share: the paths
each routes, their backend, and the annotations SSE needs.
*/}}

{{/*
The operator paths: the console (its pages, login and assets), the admin API it calls, and /metrics.
They take an operator key (or any key, /metrics) and are never routed by a public host without
paths of its own; adminIngress serves them on a host of their own.
*/}}
{{- define "switchboard.operatorPaths" -}}
{{- toJson (list (dict "path" "/console" "pathType" "Prefix") (dict "path" "/api/admin" "pathType" "Prefix") (dict "path" "/metrics" "pathType" "Exact")) }}
{{- end }}

{{/*
The paths clients use, routed by a public host without paths of its own: A2A (config.a2a's
listen_path and rest_path, agent cards and the legacy routes under them), /mcp, /.well-known (root
agent cards, OAuth protected resource metadata) and the /api/a2a and /api/mcp views. A path under
another is left out. Never the operator paths nor the probes (validations.yaml refuses an A2A
path of /, which would be every path).
*/}}
{{- define "switchboard.clientPaths" -}}
{{- $a2a := dig "a2a" dict (.Values.config | default dict) }}
{{- $paths := uniq (list (get $a2a "listen_path" | default "/a2a") (get $a2a "rest_path" | default "/a2a/rest") "/mcp" "/.well-known" "/api/a2a" "/api/mcp") }}
{{- $routes := list }}
{{- range $path := $paths }}
{{- $covered := false }}
{{- range $other := $paths }}
{{- if and (ne $other $path) (hasPrefix (printf "%s/" (trimSuffix "/" $other)) $path) }}{{ $covered = true }}{{ end }}
{{- end }}
{{- if not $covered }}{{ $routes = append $routes (dict "path" $path "pathType" "Prefix") }}{{ end }}
{{- end }}
{{- toJson $routes }}
{{- end }}

{{/* The public hosts' names, as a JSON list. */}}
{{- define "switchboard.ingressHosts" -}}
{{- $hosts := list }}
{{- range .Values.ingress.hosts }}{{ $hosts = append $hosts .host }}{{ end }}
{{- toJson $hosts }}
{{- end }}

{{/* An Ingress rule's paths, each to the Service's http port. Call: (list $ $paths) */}}
{{- define "switchboard.ingressPaths" -}}
{{- $root := index . 0 }}
{{- range index . 1 }}
- path: {{ .path | quote }}
  pathType: {{ .pathType }}
  backend:
    service:
      name: {{ include "switchboard.fullname" $root }}
      port:
        name: http
{{- end }}
{{- end }}

{{/* An Ingress's annotations: the streaming ones (ingress.streamingAnnotations), `own` merged over them. Call: (list $ $own) */}}
{{- define "switchboard.ingressAnnotations" -}}
{{- $root := index . 0 }}
{{- with merge (deepCopy (index . 1)) (ternary (include "switchboard.streamingAnnotations" $root | fromYaml) (dict) $root.Values.ingress.streamingAnnotations) }}
{{- toYaml . }}
{{- end }}
{{- end }}

{{/*
What SSE (A2A streaming, MCP, the admin API's task changes) needs from the common controllers:
responses passed on as they come, and streams not cut after the usual 60 s of a quiet upstream.
Each controller reads only its own. Traefik flushes text/event-stream at once and has no such read
timeout by default.
*/}}
{{- define "switchboard.streamingAnnotations" -}}
nginx.ingress.kubernetes.io/proxy-buffering: "off"
nginx.ingress.kubernetes.io/proxy-read-timeout: "3600"
nginx.ingress.kubernetes.io/proxy-send-timeout: "3600"
nginx.org/proxy-buffering: "false"
nginx.org/proxy-read-timeout: 3600s
nginx.org/proxy-send-timeout: 3600s
haproxy.org/timeout-server: 3600s
{{- end }}
