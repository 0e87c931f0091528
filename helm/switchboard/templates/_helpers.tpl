{{/* Names, labels and the values several templates share. */}}

{{- define "switchboard.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "switchboard.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* A component's resource name, `<fullname>-<suffix>`, within 63 characters. Call: (list $ "worker") */}}
{{- define "switchboard.componentName" -}}
{{- $root := index . 0 }}
{{- $suffix := index . 1 }}
{{- printf "%s-%s" (include "switchboard.fullname" $root | trunc (int (sub 62 (len $suffix))) | trimSuffix "-") $suffix }}
{{- end }}

{{- define "switchboard.selectorLabels" -}}
app.kubernetes.io/name: {{ include "switchboard.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* Every object's labels: the chart's own and commonLabels (whose keys values.schema.json keeps apart from these). */}}
{{- define "switchboard.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "switchboard.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* Rendered labels and more from values in one map (a key in both once, the chart's value). Call: (list $labels $more) */}}
{{- define "switchboard.labels.with" -}}
{{- merge (index . 0 | fromYaml) (index . 1 | default dict) | toYaml }}
{{- end }}

{{/* Call: (list $ "api") */}}
{{- define "switchboard.componentSelectorLabels" -}}
{{ include "switchboard.selectorLabels" (index . 0) }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end }}

{{/*
A pod template's labels: its selector labels, then the pod's own labels from values, then
commonLabels (a key in several once, the first one's value). Call: (list $ "api" [podLabels])
*/}}
{{- define "switchboard.podLabels" -}}
{{- $own := dict }}
{{- if eq (len .) 3 }}{{ $own = index . 2 | default dict }}{{ end }}
{{- merge (include "switchboard.componentSelectorLabels" . | fromYaml) $own ((index . 0).Values.commonLabels | default dict) | toYaml }}
{{- end }}

{{/* Call: (list $ "api") */}}
{{- define "switchboard.componentLabels" -}}
{{ include "switchboard.labels" (index . 0) }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end }}

{{- define "switchboard.image" -}}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion) }}
{{- end }}

{{- define "switchboard.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- .Values.serviceAccount.name | default (include "switchboard.fullname" .) }}
{{- else }}
{{- .Values.serviceAccount.name | default "default" }}
{{- end }}
{{- end }}

{{/* SWITCHBOARD_PUBLIC_URL: publicUrl, else the first ingress host; empty when neither. */}}
{{- define "switchboard.publicUrl" -}}
{{- if .Values.publicUrl }}
{{- .Values.publicUrl }}
{{- else if and .Values.ingress.enabled .Values.ingress.hosts }}
{{- printf "%s://%s" (ternary "https" "http" (gt (len .Values.ingress.tls) 0)) (first .Values.ingress.hosts).host }}
{{- end }}
{{- end }}

{{/*
The TOML the ConfigMap holds: .Values.config plus the Service's own names in
mcp_server.allowed_hosts, so in-cluster clients reach /mcp through the Service,
grpc.publicAddress as a2a.grpc.public_address (which has no environment variable), and
<public URL>/mcp as auth.oauth.resource when config.auth.oauth names none.
*/}}
{{- define "switchboard.configToml" -}}
{{- $config := deepCopy (.Values.config | default dict) }}
{{- $oauth := dig "auth" "oauth" dict $config }}
{{- if and $oauth (not $oauth.resource) (include "switchboard.publicUrl" .) }}
{{- $_ := set $oauth "resource" (printf "%s/mcp" (include "switchboard.publicUrl" . | trimSuffix "/")) }}
{{- end }}
{{- $mcpServer := get $config "mcp_server" | default dict }}
{{- $service := include "switchboard.fullname" . }}
{{- $namespace := .Release.Namespace }}
{{- $serviceNames := list $service (printf "%s.%s" $service $namespace) (printf "%s.%s.svc" $service $namespace) (printf "%s.%s.svc.cluster.local" $service $namespace) }}
{{- $_ := set $mcpServer "allowed_hosts" (concat (get $mcpServer "allowed_hosts" | default list) $serviceNames | uniq) }}
{{- $_ := set $config "mcp_server" $mcpServer }}
{{- if and .Values.grpc.enabled .Values.grpc.publicAddress }}
{{- $a2a := get $config "a2a" | default dict }}
{{- $_ := set $a2a "grpc" (merge (dict "public_address" .Values.grpc.publicAddress) (get $a2a "grpc" | default dict)) }}
{{- $_ := set $config "a2a" $a2a }}
{{- end }}
{{- print "# Rendered by the switchboard Helm chart from .Values.config (README.md, \"Configuration\").\n\n" }}
{{- include "switchboard.toml" (dict "table" $config "path" "") | trim }}
{{- end }}

{{/* The shutdown drain (config.server.shutdown_timeout_secs, default 25 s) and 5 s to exit after it. */}}
{{- define "switchboard.terminationGracePeriodSeconds" -}}
{{- $root := index . 0 }}
{{- $extra := index . 1 }}
{{- add (ceil (dig "server" "shutdown_timeout_secs" 25 ($root.Values.config | default dict))) 5 $extra }}
{{- end }}

{{/* The grpc Service port's appProtocol: grpc.appProtocol, else cleartext HTTP/2 unless config.a2a.grpc.tls is set. */}}
{{- define "switchboard.grpcAppProtocol" -}}
{{- if .Values.grpc.appProtocol }}
{{- .Values.grpc.appProtocol }}
{{- else if not (dig "a2a" "grpc" "tls" "" (.Values.config | default dict)) }}
{{- print "kubernetes.io/h2c" }}
{{- end }}
{{- end }}

{{/* Where trustedCa's bundle comes from ("configMap" or "secret"); empty when none is set. */}}
{{- define "switchboard.trustedCaSource" -}}
{{- if .Values.trustedCa.configMap }}configMap{{ else if .Values.trustedCa.secret }}secret{{ end }}
{{- end }}
